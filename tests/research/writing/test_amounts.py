"""Amounts as documents write them: their values, and the sums of money told with a scale word."""

from __future__ import annotations

from research.writing.amounts import amounts_in


def test_amounts_and_scaled_amounts_are_read_with_their_values() -> None:
    text = "Gärwerk raised EUR 14 million (14m), about 4,1 M€; it has 310 customers and Rs 96 crore in orders."
    assert amounts_in(text) >= {14e6, 4.1e6, 310.0, 96e7}
    assert amounts_in(text, scaled=True) == {14e6, 4.1e6, 96e7}
    assert amounts_in("The round: USD 12mn, led by Fjell.", scaled=True) == {12e6}
