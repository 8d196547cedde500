"""The workspaces' routes: the home page (every workspace of the user) and, under ``w/<slug>/``, the
workspace page, its members, its ideal customer profile and its web default."""

from __future__ import annotations

from django.urls import path

from research.workspaces import views

public = [
    path("", views.home, name="home"),
]

urlpatterns = [
    path("", views.workspace_detail, name="workspace_detail"),
    path("members/<int:member_id>/remove/", views.member_remove, name="member_remove"),
    path("icp/", views.icp_update, name="icp_update"),
    path("web-default/", views.workspace_web_default, name="workspace_web_default"),
]
