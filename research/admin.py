"""Admin registrations; the admin's login form is throttled like the site's (research/platform/throttle.py)."""

from __future__ import annotations

from django.contrib import admin

from research.models import Invitation, Membership, Schedule, Workspace
from research.platform.login import AdminLoginForm

admin.site.login_form = AdminLoginForm


class MembershipInline(admin.TabularInline[Membership, Workspace]):
    model = Membership
    extra = 0


@admin.register(Workspace)
class WorkspaceAdmin(admin.ModelAdmin[Workspace]):
    list_display = ["name", "slug", "created_at"]
    search_fields = ["name", "slug"]
    inlines = [MembershipInline]


@admin.register(Schedule)
class ScheduleAdmin(admin.ModelAdmin[Schedule]):
    """Operators see every schedule and can pause one; the product computes its times."""

    list_display = ["investigation", "frequency", "timezone", "next_run_at", "paused", "paused_reason"]
    list_filter = ["paused", "frequency"]
    readonly_fields = ["next_run_at", "last_fired_at", "created_at"]
    exclude = ["webhook_secret"]  # never shown back, to operators either


@admin.register(Invitation)
class InvitationAdmin(admin.ModelAdmin[Invitation]):
    list_display = ["email", "workspace", "role", "created_at", "expires_at", "accepted_at", "revoked_at"]
    search_fields = ["email"]
    readonly_fields = ["token_sha256", "accepted_by", "accepted_at", "mail_error"]
