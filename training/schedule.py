"""The order of training batches and the learning-rate curve: torch-free, so that a run
resumed after epoch N (`train.py --resume`) can be checked to continue exactly as the
uninterrupted run would have."""
import os
import re


def batches(ex, bs, rng):
    """Length-bucketed shuffled batches (less padding -> faster on CPU)."""
    idx = list(range(len(ex)))
    rng.shuffle(idx)
    chunks = [idx[i:i + bs * 20] for i in range(0, len(idx), bs * 20)]
    out = []
    for c in chunks:
        c.sort(key=lambda i: len(ex[i][0]))
        out += [c[i:i + bs] for i in range(0, len(c), bs)]
    rng.shuffle(out)
    return out


def warmup_steps(total):
    return max(1, int(0.06 * total))


def lr_factor(step, total):
    """Linear warm-up over the first 6 % of the steps, then linear decay to 0."""
    warm = warmup_steps(total)
    return min((step + 1) / warm, max(0.0, (total - step) / max(1, total - warm)))


def resumed_epoch(checkpoint):
    """N of an `hf_epochN` folder: the epochs that run had finished."""
    m = re.fullmatch(r"hf_epoch(\d+)", os.path.basename(os.path.normpath(checkpoint)))
    if not m:
        raise ValueError("--resume takes an hf_epochN folder")
    return int(m.group(1))


def skip_epochs(ex, bs, rng, epochs):
    """Draws the finished epochs' shuffles, so the next epoch sees the batches it would have."""
    for _ in range(epochs):
        batches(ex, bs, rng)
