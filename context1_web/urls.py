"""URL routes: accounts (throttled login), admin, the public API, the favicon and the research app."""

from __future__ import annotations

from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path

from research.accounts import views as accounts
from research.api import views as api_views
from research.api.api import api
from research.platform import views as platform
from research.platform.login import LoginForm

handler400 = api_views.bad_request  # an API request Django refuses before its view answers problem+json

urlpatterns = [
    path(
        "accounts/login/",
        auth_views.LoginView.as_view(redirect_authenticated_user=True, authentication_form=LoginForm),
        name="login",
    ),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("accounts/profile/", accounts.profile, name="account_profile"),
    path("accounts/password/", accounts.PasswordChange.as_view(), name="password_change"),
    path("accounts/tokens/", api_views.api_tokens, name="api_tokens"),
    path("accounts/tokens/<int:token_id>/revoke/", api_views.api_token_revoke, name="api_token_revoke"),
    path("admin/", admin.site.urls),
    path("api/v1/", api.urls),
    path("favicon.ico", platform.favicon, name="favicon"),
    path("", include("research.urls")),
]
