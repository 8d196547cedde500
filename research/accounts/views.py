"""The account page (``/accounts/profile/``): one's e-mail address, and the password change (Django's view with
our template), both behind login."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.views import PasswordChangeView
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse_lazy
from django.views.decorators.http import require_http_methods

from research.accounts.forms import EmailForm
from research.accounts.services import email_set
from research.platform.http import apply_errors, user_of


@login_required
@require_http_methods(["GET", "POST"])
def profile(request: HttpRequest) -> HttpResponse:
    user = user_of(request)
    form = EmailForm(request.POST or None, initial={"email": user.email})
    if request.method == "POST" and form.is_valid():
        try:
            email_set(user=user, email=form.cleaned_data["email"])
        except ValidationError as error:
            apply_errors(form, error)
        else:
            messages.info(request, "Saved." if user.email else "Saved: no e-mail will be sent to you.")
            return redirect("account_profile")
    status = 422 if form.errors else 200
    return render(request, "registration/profile.html", {"form": form}, status=status)


class PasswordChange(PasswordChangeView):
    template_name = "registration/password_change.html"
    success_url = reverse_lazy("account_profile")

    def form_valid(self, form):  # type: ignore[no-untyped-def]
        messages.info(self.request, "Your password was changed.")
        return super().form_valid(form)
