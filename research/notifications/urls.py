"""Notifications: the user's notices across workspaces, under ``notifications/``."""

from __future__ import annotations

from django.urls import path

from research.notifications import views

urlpatterns = [
    path("", views.notification_list, name="notification_list"),
    path("<int:notification_id>/", views.notification_open, name="notification_open"),
    path("read/", views.notifications_read, name="notifications_read"),
]
