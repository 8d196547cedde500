"""The workspace socket: live notices of one workspace (ingestion progress) as HTML fragments, for members only."""

from __future__ import annotations

import json
from functools import partial
from typing import Any

from channels.db import database_sync_to_async
from django.template.loader import render_to_string

from research.platform.access import GuardedConsumer
from research.platform.realtime import CLOSE_FORBIDDEN, workspace_group
from research.workspaces import selectors


class WorkspaceConsumer(GuardedConsumer):
    """Live notices of one workspace (ingestion progress: research/corpora/progress.py) as HTML fragments, for
    members only.

    Membership is checked at connect and again before sending (research/platform/access.py): a member who
    is removed or logs out stops receiving, and the socket closes with 4403.
    """

    group: str | None = None

    async def connect(self) -> None:
        user = self.scope.get("user")
        slug = self.scope["url_route"]["kwargs"]["slug"]
        workspace_id = await self._member_workspace_id(user, slug)
        if workspace_id is None:
            await self.close(code=CLOSE_FORBIDDEN)
            return
        await self.guard(user, partial(_is_member, workspace_id))
        self.group = workspace_group(workspace_id)
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.accept()

    async def disconnect(self, code: int) -> None:
        if self.group is not None:
            await self.channel_layer.group_discard(self.group, self.channel_name)
        await self.unguard()

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        # The stream is one-way; clients only listen.
        await self.send(text_data=json.dumps({"type": "error", "detail": "this socket does not accept messages"}))

    async def group_message(self, event: dict[str, Any]) -> None:
        # htmx's ws extension swaps each fragment into the page by its hx-swap-oob target.
        if not await self.may_send():
            return
        payload = event["payload"]
        if payload.get("type") == "html":
            await self.send(text_data=payload["html"])
            return
        await self.send(text_data=render_to_string("research/partials/notice.html", {"notice": payload}))

    async def _member_workspace_id(self, user: Any, slug: str) -> int | None:
        if user is None or not user.is_authenticated:
            return None
        membership = await database_sync_to_async(selectors.membership_find_by_slug)(user_id=user.pk, slug=slug)
        return None if membership is None else membership.workspace_id


def _is_member(workspace_id: int, user_id: int) -> bool:
    return selectors.membership_exists(user_id=user_id, workspace_id=workspace_id)
