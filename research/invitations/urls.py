"""Invitations: owners invite by e-mail on the workspace page (under ``w/<slug>/invitations/``); the link's
page (``invite/<token>/``) joins or creates an account."""

from __future__ import annotations

from django.urls import path

from research.invitations import views

public = [
    path("invite/<str:token>/", views.invitation_page, name="invitation_page"),
]

urlpatterns = [
    path("", views.invitation_create, name="invitation_create"),
    path("<int:invitation_id>/revoke/", views.invitation_revoke, name="invitation_revoke"),
]
