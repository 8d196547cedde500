"""App configuration for the research app."""

from __future__ import annotations

from django.apps import AppConfig


class ResearchConfig(AppConfig):
    name = "research"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from research.platform import access, checks  # noqa: F401 - registers the system checks
        from research.schedules import receivers
        from research.webhooks import receivers as webhook_receivers

        access.connect_signals()  # logging out or losing a membership closes the user's open sockets
        receivers.connect_signals()  # a scheduled run's end enqueues its digest
        webhook_receivers.connect_signals()  # a run's finish or failure enqueues its webhook
