"""Share links: managed on an investigation's page (under ``w/<slug>/investigations/<id>/links/``), and the
public read-only pages behind them (``s/<token>/``)."""

from __future__ import annotations

from django.urls import path

from research.sharing import views

public = [
    path("s/<str:token>/", views.shared_page, name="shared_page"),
    path("s/<str:token>/c/<str:chunk_id>/", views.shared_chunk_page, name="shared_chunk"),
]

urlpatterns = [
    path("", views.share_link_create, name="share_link_create"),
    path("<int:link_id>/revoke/", views.share_link_revoke, name="share_link_revoke"),
]
