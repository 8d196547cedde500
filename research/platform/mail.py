"""Sending e-mail: absolute links, messages as plain text with an HTML alternative, one connection a batch, and
failures returned as a reason instead of raised (the caller records it and the product goes on).

Django's backend is chosen in settings: SMTP when ``EMAIL_HOST`` is set (``EMAIL_TIMEOUT`` bounds every call),
otherwise files under ``DATA_DIR/mail`` so the embedded default needs no mail server.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from django.conf import settings
from django.core.mail import EmailMultiAlternatives, get_connection
from django.template.loader import render_to_string

logger = logging.getLogger(__name__)


def absolute(path: str) -> str:
    """``path`` (starting with /) on the product's public address, ``SITE_URL``."""
    return f"{settings.SITE_URL.rstrip('/')}{path}"


@dataclass(frozen=True)
class Mail:
    to: str
    subject: str
    template: str  # "email/<name>": <name>.txt and <name>.html are rendered with ``context``
    context: Mapping[str, object] = field(default_factory=dict)
    headers: Mapping[str, str] = field(default_factory=dict)

    def message(self) -> EmailMultiAlternatives:
        text = render_to_string(f"{self.template}.txt", dict(self.context))
        html = render_to_string(f"{self.template}.html", dict(self.context))
        message = EmailMultiAlternatives(
            subject=" ".join(self.subject.split())[:200],  # no header injection through a title
            body=text,
            to=[self.to],
            headers=dict(self.headers),
        )
        message.attach_alternative(html, "text/html")
        return message


@dataclass(frozen=True)
class Sent:
    delivered: tuple[str, ...]  # the addresses sent to
    error: str = ""  # why the rest were not


def mail_send(mails: Sequence[Mail]) -> Sent:
    """Send ``mails`` over one connection, in order; stop at the first failure and say why."""
    delivered: list[str] = []
    if not mails:
        return Sent(())
    try:
        with get_connection(fail_silently=False, timeout=settings.EMAIL_TIMEOUT) as connection:
            for mail in mails:
                connection.send_messages([mail.message()])
                delivered.append(mail.to)
    except Exception as error:  # SMTP refusals, timeouts, a full disk: the caller keeps the reason
        logger.warning("e-mail not sent (%d of %d sent): %s", len(delivered), len(mails), error)
        return Sent(tuple(delivered), f"{type(error).__name__}: {error}")
    return Sent(tuple(delivered))
