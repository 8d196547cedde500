"""URL routes: accounts (throttled login), admin, the favicon and the research app."""

from __future__ import annotations

from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path

from research.accounts import views as accounts
from research.platform import views as platform
from research.platform.login import LoginForm

urlpatterns = [
    path(
        "accounts/login/",
        auth_views.LoginView.as_view(redirect_authenticated_user=True, authentication_form=LoginForm),
        name="login",
    ),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("accounts/profile/", accounts.profile, name="account_profile"),
    path("accounts/password/", accounts.PasswordChange.as_view(), name="password_change"),
    path("admin/", admin.site.urls),
    path("favicon.ico", platform.favicon, name="favicon"),
    path("", include("research.urls")),
]
