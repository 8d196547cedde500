"""A tiny Llama for the real-vLLM tier: hand-set weights, built offline in seconds, no download.

Random weights serve plain chat, but they never finish a tool call (xgrammar's JSON grammar lets them
write whitespace forever). This model's weights are *set*, not trained, so that at temperature 0 it:

- answers ``result is ok`` when no tools are offered;
- opens a ``<tool_call>`` whenever tools are listed, and then, with vLLM's hermes structural tag pinning
  the arguments to the tool's schema (``--tool-strict-level parameter``), writes a schema-valid call:
  ``search_corpus`` before any tool result is in the prompt, ``grep_corpus`` after one, every string
  argument being ``result is ok``;
- never spends tokens on optional whitespace, and closes strings, arrays and objects as soon as it may.

How: every ``o_proj``/``down_proj`` writes nothing except two attention heads of layer 0, which act as
presence detectors for the ``<tools>`` and ``<tool_response>`` tokens. The last hidden state is then the
current token's class plus two flags, and ``lm_head`` is a lookup table from that to the next token.
Layer 1 keeps random q/k/v, so the KV cache holds real data.

The file is standalone (torch, tokenizers, transformers only) so that either virtualenv can run it:
``python tests/vllm/tiny_model.py OUT_DIR``.
"""

from __future__ import annotations

import glob
import os
import sys
import sysconfig
from collections.abc import Iterator
from pathlib import Path
from typing import Any

SERVED_NAME = "tiny"
VOCAB = 8192
HIDDEN = 128
HEAD_DIM = 64
MAX_LEN = 2048
ANSWER = ("result", " is", " ok")

# Hermes/Qwen-style chat template: tools as JSON lines inside <tools> in the system turn, assistant calls as
# <tool_call> JSON </tool_call>, tool results as a user turn inside <tool_response>. vLLM's hermes parser
# reads the calls back. Every message renders on its own, so a growing conversation keeps its prefix.
CHAT_TEMPLATE = """\
{%- if messages and messages[0].role == 'system' %}{% set system = messages[0].content %}{% set rest = messages[1:] %}\
{%- else %}{% set system = '' %}{% set rest = messages %}{% endif %}
{%- if tools %}<|im_start|>system
{% if system %}{{ system }}

{% endif %}# Tools
<tools>
{% for tool in tools %}{{ tool | tojson }}
{% endfor %}</tools>
Call a function by writing a JSON object inside <tool_call></tool_call> tags.<|im_end|>
{% elif system %}<|im_start|>system
{{ system }}<|im_end|>
{% endif %}
{%- for message in rest %}
{%- if message.role == 'user' %}<|im_start|>user
{{ message.content }}<|im_end|>
{% elif message.role == 'assistant' %}<|im_start|>assistant
{% if message.content %}{{ message.content }}{% endif %}
{%- for call in message.tool_calls | default([]) %}{% set f = call.function if call.function is defined else call %}
<tool_call>
{"name": "{{ f.name }}", "arguments": {{ f.arguments if f.arguments is string else f.arguments | tojson }}}
</tool_call>
{%- endfor %}<|im_end|>
{% elif message.role == 'tool' %}<|im_start|>user
<tool_response>
{{ message.content }}
</tool_response><|im_end|>
{% endif %}
{%- endfor %}
{%- if add_generation_prompt %}<|im_start|>assistant
{% endif %}"""

SPECIAL = ["<|endoftext|>", "<|im_start|>", "<|im_end|>"]
# Plain added tokens (not special): vLLM's hermes parser looks for <tool_call>/</tool_call> as single tokens.
MARKUP = ["<tool_call>", "</tool_call>", "<tool_response>", "</tool_response>", "<tools>", "</tools>"]

# Residual-stream channels.
BIAS, TOOLS_IN, RESULT_IN, TOOLS_SEEN, RESULT_SEEN = 0, 1, 2, 3, 4
AFTER_WORD1, AFTER_WORD2, AFTER_WORD3, AFTER_TAG, AFTER_QUOTE, AFTER_DIGITS = 8, 9, 10, 11, 12, 13


def training_text() -> Iterator[str]:
    """Python's own standard library (always on disk): code plus the English of pydoc's topics."""
    stdlib = sysconfig.get_paths()["stdlib"]
    paths = sorted(glob.glob(os.path.join(stdlib, "*.py")))
    paths.append(os.path.join(stdlib, "pydoc_data", "topics.py"))
    for path in paths:
        with open(path, encoding="utf-8", errors="ignore") as handle:
            yield handle.read()


def build_tokenizer(out: Path) -> Any:
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers, trainers
    from transformers import PreTrainedTokenizerFast

    bpe = Tokenizer(models.BPE())
    bpe.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    bpe.decoder = decoders.ByteLevel()
    trainer = trainers.BpeTrainer(
        vocab_size=VOCAB,
        special_tokens=SPECIAL,
        initial_alphabet=pre_tokenizers.ByteLevel.alphabet(),
        show_progress=False,
    )
    bpe.train_from_iterator(training_text(), trainer=trainer)
    tokenizer: Any = PreTrainedTokenizerFast(  # type: ignore[no-untyped-call]
        tokenizer_object=bpe, eos_token="<|im_end|>", pad_token="<|endoftext|>", model_max_length=MAX_LEN
    )
    tokenizer.add_tokens(MARKUP, special_tokens=False)
    tokenizer.chat_template = CHAT_TEMPLATE
    tokenizer.save_pretrained(str(out))
    return tokenizer


def build(out: Path) -> Path:
    """Write tokenizer, chat template, config and bf16 weights into ``out``; returns ``out``."""
    import torch
    from transformers import LlamaConfig, LlamaForCausalLM

    out.mkdir(parents=True, exist_ok=True)
    tokenizer = build_tokenizer(out)
    size = len(tokenizer)

    def token(text: str) -> int:
        ids = tokenizer.encode(text, add_special_tokens=False)
        return int(ids[0])

    def exact(text: str) -> int:
        ids = tokenizer.encode(text, add_special_tokens=False)
        if len(ids) != 1:
            raise RuntimeError(f"{text!r} is not one token of the trained vocabulary: {ids}")
        return int(ids[0])

    def text_of(token_id: int) -> str:
        return str(tokenizer.decode([token_id]))

    end, call_open, call_close = exact("<|im_end|>"), exact("<tool_call>"), exact("</tool_call>")
    tools_tag, result_tag = exact("<tools>"), exact("<tool_response>")
    word1, word2, word3 = (exact(word) for word in ANSWER)
    quote, comma, close_brace, close_bracket = exact('"'), exact(","), exact("}"), exact("]")
    search_first, grep_first = token("search_corpus"), token("grep_corpus")
    if search_first == grep_first:
        raise RuntimeError("search_corpus and grep_corpus begin with the same token")

    config: dict[str, Any] = {
        "vocab_size": size,
        "hidden_size": HIDDEN,
        "intermediate_size": 2 * HIDDEN,
        "num_hidden_layers": 2,
        "num_attention_heads": 4,
        "num_key_value_heads": 2,
        "head_dim": HEAD_DIM,
        "max_position_embeddings": MAX_LEN,
        "rms_norm_eps": 1e-6,
        "rope_theta": 1e6,
        "tie_word_embeddings": False,
        "eos_token_id": end,
        "pad_token_id": exact("<|endoftext|>"),
        "bos_token_id": None,
    }
    torch.manual_seed(0)
    model: Any = LlamaForCausalLM(LlamaConfig(**config))
    state = {name: value.clone() for name, value in model.state_dict().items()}

    # Input embeddings: the bias channel, the two markers, and the class of each token that decides the next.
    embed = torch.zeros(size, HIDDEN)
    embed[:, BIAS] = 1.0
    embed[tools_tag, TOOLS_IN] = 1.0
    embed[result_tag, RESULT_IN] = 1.0
    classes = {word1: AFTER_WORD1, word2: AFTER_WORD2, word3: AFTER_WORD3}
    unclassed = {*classes, *tokenizer.all_special_ids, tools_tag, result_tag}
    whitespace = []
    for token_id in range(size):
        text = text_of(token_id)
        if text and not text.strip() and token_id not in tokenizer.all_special_ids:
            whitespace.append(token_id)
        if token_id in unclassed:
            continue
        if text.endswith('"'):
            classes[token_id] = AFTER_QUOTE  # a string (or a tool name) is about to start
        elif text.endswith(">"):
            classes[token_id] = AFTER_TAG  # e.g. </tool_call>: the turn is over
        elif text.strip().isdigit():
            classes[token_id] = AFTER_DIGITS
    for token_id, channel in classes.items():
        embed[token_id, channel] = 1.0
    state["model.embed_tokens.weight"] = embed

    for layer in range(2):
        prefix = f"model.layers.{layer}."
        state[prefix + "input_layernorm.weight"] = torch.ones(HIDDEN)
        state[prefix + "post_attention_layernorm.weight"] = torch.ones(HIDDEN)
        state[prefix + "self_attn.o_proj.weight"].zero_()
        state[prefix + "mlp.down_proj.weight"].zero_()
    state["model.norm.weight"] = torch.ones(HIDDEN)

    # Layer 0 presence detectors. Query head 0 (kv head 0) looks for <tools>, query head 2 (kv head 1) for
    # <tool_response>. They use head dimension 31, whose RoPE frequency (theta 1e6) barely turns over 2048
    # positions, so attention lands on the marker wherever it is; the head writes 1.0 into its flag channel.
    attention = "model.layers.0.self_attn."
    for projection in ("q_proj", "k_proj", "v_proj"):
        state[attention + projection + ".weight"].zero_()
    slow = 31
    for query_head, kv_head, marker, flag in ((0, 0, TOOLS_IN, TOOLS_SEEN), (2, 1, RESULT_IN, RESULT_SEEN)):
        state[attention + "q_proj.weight"][query_head * HEAD_DIM + slow, BIAS] = 1.8
        state[attention + "k_proj.weight"][kv_head * HEAD_DIM + slow, marker] = 1.8
        state[attention + "v_proj.weight"][kv_head * HEAD_DIM, marker] = 1.0 / 8  # rmsnorm scales 1 to 8
        state[attention + "o_proj.weight"][flag, query_head * HEAD_DIM] = 1.0

    # lm_head: a weak random prior, then the table. Comparisons only: every channel is scaled alike.
    head = torch.randn(size, HIDDEN) * 0.02
    head[:, BIAS] = torch.randn(size) * 0.05
    head[whitespace, BIAS] = -3.0  # optional JSON whitespace never wins
    head[word1, BIAS] = 2.0  # with nothing else to go on, start "result is ok"
    head[quote, BIAS] = 1.0
    head[close_brace, BIAS] = 1.5
    head[close_bracket, BIAS] = 1.5
    head[end, BIAS] = 0.5
    head[call_close, BIAS] = 1.8
    head[call_open, TOOLS_SEEN] = 4.5  # tools offered: call one (below the table, above the grep bias)
    head[word2, AFTER_WORD1] = 6.0
    head[word3, AFTER_WORD2] = 6.0
    head[end, AFTER_WORD3] = 8.0  # "... ok" ends the turn,
    head[quote, AFTER_WORD3] = 6.0  # or the JSON string when the grammar forbids ending
    head[word1, AFTER_WORD3] = -5.0
    head[end, AFTER_TAG] = 8.0
    head[word1, AFTER_QUOTE] = 6.0  # every string says "result is ok"
    head[search_first, AFTER_QUOTE] = 3.0  # where only a tool name fits: search_corpus first,
    head[search_first, RESULT_SEEN] = -4.0
    head[grep_first, RESULT_SEEN] = 3.0  # grep_corpus once a tool result is in the prompt
    head[comma, AFTER_DIGITS] = 5.0
    head[close_brace, AFTER_DIGITS] = 6.0
    head[close_bracket, AFTER_DIGITS] = 6.0
    state["lm_head.weight"] = head

    model.load_state_dict(state)
    model = model.to(torch.bfloat16)
    model.save_pretrained(str(out))
    model.generation_config.save_pretrained(str(out))
    return out


def self_check(out: Path) -> list[str]:
    """Greedy continuations with transformers (no grammar): plain, with tools, after a tool result."""
    import torch
    from transformers import AutoModelForCausalLM, AutoTokenizer

    tokenizer: Any = AutoTokenizer.from_pretrained(str(out))
    model: Any = AutoModelForCausalLM.from_pretrained(str(out), dtype=torch.bfloat16)
    tools: list[dict[str, Any]] = [
        {
            "type": "function",
            "function": {
                "name": "search_corpus",
                "parameters": {"type": "object", "properties": {"query": {"type": "string"}}, "required": ["query"]},
            },
        }
    ]
    user: dict[str, Any] = {"role": "user", "content": "hello"}
    called: dict[str, Any] = {
        "role": "assistant",
        "tool_calls": [{"function": {"name": "search_corpus", "arguments": "{}"}}],
    }
    cases: list[tuple[list[dict[str, Any]], list[dict[str, Any]] | None]] = [
        ([user], None),
        ([user], tools),
        ([user, called, {"role": "tool", "content": "x"}], tools),
    ]
    replies = []
    for messages, offered in cases:
        encoded = tokenizer.apply_chat_template(
            messages, tools=offered, add_generation_prompt=True, return_tensors="pt", return_dict=True
        )
        ids = encoded["input_ids"]
        generated = model.generate(ids, max_new_tokens=5, do_sample=False)
        replies.append(str(tokenizer.decode(generated[0, ids.shape[1] :])))
    return replies


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: tiny_model.py OUT_DIR")
    target = build(Path(sys.argv[1]))
    print(f"built {target}: {self_check(target)}")
