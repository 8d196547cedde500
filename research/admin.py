"""Admin registrations; the admin's login form is throttled like the site's (research/platform/throttle.py)."""

from __future__ import annotations

from django.contrib import admin

from research.models import Membership, Workspace
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
