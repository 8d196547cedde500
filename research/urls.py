"""URL routes of the research app."""

from __future__ import annotations

from django.urls import path

from research import views

urlpatterns = [
    path("", views.home, name="home"),
    path("healthz", views.health, name="health"),
    path("w/<slug:slug>/", views.workspace_detail, name="workspace_detail"),
    path("w/<slug:slug>/members/", views.member_add, name="member_add"),
]
