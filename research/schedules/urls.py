"""Schedules: the card of an investigation's page and its digests (under
``w/<slug>/investigations/<id>/``), and the unsubscribe page e-mails link to (``unsubscribe/<token>/``)."""

from __future__ import annotations

from django.urls import path

from research.schedules import views

public = [
    path("unsubscribe/<str:token>/", views.schedule_unsubscribe, name="schedule_unsubscribe"),
]

urlpatterns = [
    path("schedule/", views.schedule_save, name="schedule_save"),
    path("schedule/pause/", views.schedule_pause, name="schedule_pause"),
    path("schedule/delete/", views.schedule_delete, name="schedule_delete"),
    path("schedule/test-email/", views.schedule_test_email, name="schedule_test_email"),
    path("schedule/run-now/", views.schedule_run_now, name="schedule_run_now"),
    path("schedule/mute/", views.schedule_mute, name="schedule_mute"),
    path("digests/<int:digest_id>/", views.digest_page, name="digest_page"),
]
