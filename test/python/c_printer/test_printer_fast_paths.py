"""The C printer's faster equivalents answer exactly as the code they replaced (docs/compile_time.md,
ninth round): the text scans for helper names and parameter mentions."""

from __future__ import annotations

import re

import pytest

from loopopt.targets.c_helpers import HELPER_NAME, helper_names
from loopopt.targets.c_printer import _mentions

TEXTS = [
    "",
    "lo_a",
    "x = lo_hreduce_add_f32x8(v); y = xlo_b(v); z = lo_c",
    "acc_lo_1 = lo_d(acc_lo); lo_e_lo_f lo_",
    "lo_gé lo_h; élo_i lo_jé_k _lo_l 9lo_m (lo_n)",  # non-ASCII word characters around a candidate
    "lo_o\nlo_p\tlo_q.lo_r->lo_s[lo_t]",
    "lo_lo_u lolo_v lo__w",
]


@pytest.mark.parametrize("text", TEXTS)
def test_helper_names_is_helper_name_findall(text: str) -> None:
    assert helper_names(text) == HELPER_NAME.findall(text)


NAMES = ["a", "aa", "x_len", "n", "p0", "é", "lo_x", "ret0", "a.b"]


@pytest.mark.parametrize("text", [*TEXTS, "aaa a", "aa aaa", "xaa aax", "ax_len x_lenx x_len", "na n", "éa aé", "a.b a.bc"])
@pytest.mark.parametrize("name", NAMES)
def test_mentions_is_a_whole_word_search(text: str, name: str) -> None:
    assert _mentions(text, name) == (re.search(rf"\b{re.escape(name)}\b", text) is not None)
