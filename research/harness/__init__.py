"""The Context-1 agent loop, framework-free: budget, context and pruning, tools, rollouts, typed events."""
