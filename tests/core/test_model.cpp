// Stage: the tiny trainable Transformer (model.hpp). The live-training chapter's claims,
// trained natively with fixed seeds: the tasks, the held-out split, determinism, and what
// each toggle does to learning; Adam. Every threshold
// below was measured on the development machine (values in the comments) and set with a
// margin; runs are short (a few hundred steps of a ~10k-parameter model).
#include <algorithm>
#include <cmath>
#include <numeric>
#include <set>

#include "helpers.hpp"

namespace {

TrainerConfig config(Task task, std::uint64_t seed = 1, float lr = 1e-2f) {
    TrainerConfig c;
    c.task = task;
    c.model.seed = seed;
    c.adam.lr = lr;
    return c;
}

double accuracy(const LossStats& s) { return double(s.correct) / double(s.count); }

// Trains until `steps` steps are done; returns the best held-out loss seen at the evaluations every 25 steps.
double train(Trainer& t, std::size_t steps) {
    double best = 1e30;
    while (t.steps() < steps) {
        t.step();
        if (t.steps() % 25 == 0) best = std::min(best, t.evaluate().loss);
    }
    return best;
}

}  // namespace

TEST_CASE("tasks: targets, probes and the held-out split", "[model]") {
    REQUIRE(task_targets(Task::PreviousToken, {3, 1, 4, 1}) == std::vector<int>{-1, 3, 1, 4});
    // two relations: the digits three places back and one place back (the one between does not count)
    REQUIRE(task_targets(Task::TwoRelations, {4, 7, 2, 9, 5}) == std::vector<int>{-1, -1, -1, 42, 79});
    REQUIRE(task_info(Task::TwoRelations).offsets == std::vector<int>{1, 3});
    REQUIRE(task_targets(Task::Sort, {3, 9, 1, 7, 4, 10, 1, 3, 4, 7, 9}) ==
            std::vector<int>{-1, -1, -1, -1, -1, 1, 3, 4, 7, 9, -1});
    REQUIRE_THROWS_AS(task_targets(Task::Sort, {3, 3, 1, 7, 4}), ValueError);       // repeated digit
    REQUIRE_THROWS_AS(task_targets(Task::Sort, {3, 9, 1, 7, 4, 5}), ValueError);    // no separator
    REQUIRE_THROWS_AS(task_targets(Task::PreviousToken, {3, 10}), ValueError);      // not a digit
    REQUIRE(task_from_name("two-relations") == Task::TwoRelations);
    REQUIRE_THROWS_AS(task_from_name("copy"), ValueError);

    for (Task task : {Task::PreviousToken, Task::TwoRelations, Task::Sort, Task::Induction}) {
        const TaskInfo info = task_info(task);
        CAPTURE(info.name);
        REQUIRE(info.probe.size() == info.seq_len);
        REQUIRE(info.token_labels.size() == info.vocab_in);
        REQUIRE(info.output_labels.size() == info.vocab_out);
        const Batch held = held_out_batch(task, 200);
        const Batch train = training_batch(task, 200, 17);
        std::set<std::vector<int>> held_set;
        for (std::size_t b = 0; b < 200; ++b) {
            const std::vector<int> h(held.tokens.begin() + b * held.seq_len, held.tokens.begin() + (b + 1) * held.seq_len);
            const std::vector<int> t(train.tokens.begin() + b * train.seq_len,
                                     train.tokens.begin() + (b + 1) * train.seq_len);
            REQUIRE(is_held_out(task, h));
            REQUIRE_FALSE(is_held_out(task, t));
            REQUIRE(task_targets(task, t) ==
                    std::vector<int>(train.targets.begin() + b * train.seq_len, train.targets.begin() + (b + 1) * train.seq_len));
            held_set.insert(h);
        }
        REQUIRE(held_set.size() > 150);  // varied, not one sequence repeated
        // about one sequence in eight is held out (uniformly random digit sequences)
        std::size_t n = 0, held_count = 0;
        if (task != Task::Sort)
            for (std::uint64_t k = 0; k < 800; ++k, ++n) {
                std::vector<int> seq;
                for (std::size_t t = 0; t < info.seq_len; ++t) seq.push_back(int(uniform01(5, k * 16 + t) * 10));
                held_count += is_held_out(task, seq);
            }
        if (n) REQUIRE(double(held_count) / double(n) == Approx(0.125).margin(0.04));
    }
}

TEST_CASE("training is deterministic for a seed", "[model]") {
    Trainer a(config(Task::PreviousToken, 7)), b(config(Task::PreviousToken, 7)), c(config(Task::PreviousToken, 8));
    for (int s = 0; s < 5; ++s) {
        const double la = a.step().batch.loss, lb = b.step().batch.loss, lc = c.step().batch.loss;
        REQUIRE(la == lb);
        REQUIRE(la != lc);
    }
    REQUIRE(a.evaluate().loss == b.evaluate().loss);
    const auto pa = a.probe(a.task().probe), pb = b.probe(b.task().probe);
    REQUIRE(pa.probe.predictions == pb.probe.predictions);
}

TEST_CASE("previous token: the default model learns it and its head attends to i-1", "[model]") {
    // The page's default: seed 1, lr 1e-2, one head, d_k = 64, with 1/√d_k.
    Trainer t(config(Task::PreviousToken));
    const double best = train(t, 200);  // measured: 0.030 at step 100, 0.005 at step 200
    const LossStats ev = t.evaluate();
    CAPTURE(best, ev.loss, accuracy(ev));
    REQUIRE(best < 0.05);
    REQUIRE(accuracy(ev) >= 0.99);
    // On the probe every row's largest weight sits on the previous token (measured 0.59 to
    // 0.82, mean 0.69). The rest goes mostly to the token itself: the residual stream
    // already carries the current token, so weight on itself costs the loss nothing, and a
    // sharper head would need much larger W_Q, W_K (sinusoidal positions of neighbours are
    // alike). Above 0.9 at a higher learning rate: the next test case.
    const auto p = t.probe(t.task().probe).probe;
    const Matrix& W = p.weights[0][0];
    double mean = 0;
    for (std::size_t i = 1; i < W.rows(); ++i) {
        CAPTURE(i);
        for (std::size_t j = 0; j <= i; ++j)
            if (j != i - 1) REQUIRE(W(i, i - 1) > W(i, j));
        for (std::size_t j = i + 1; j < W.cols(); ++j) REQUIRE(W(i, j) == 0.0f);  // causal
        mean += W(i, i - 1) / double(W.rows() - 1);
    }
    REQUIRE(mean > 0.5);
    REQUIRE(p.predictions[3] == 4);  // probe 3 1 4 1 5 9 2 6: at the second "1", the previous token is 4
}

TEST_CASE("previous token: with seed 4 and lr 2e-2 the head puts more than 0.9 on i-1", "[model]") {
    // The target for the trained head. At the page's default (lr 1e-2) the head
    // settles near 0.8 (above); at twice the rate the early steps are noisier but W_Q, W_K
    // grow larger before the loss reaches ~0, and once it does the gradients vanish and
    // the weights freeze. Measured for this seed (identical with g++ -O3 AVX2 and with the
    // clang-14 ASan build): held-out loss 5e-4 at step 400, < 1e-4 from step 600; the
    // smallest weight on i−1 over the probe rows 0.941 at step 400, 0.959 at 600 and
    // 0.963 at 1000. Other seeds at this rate pass through 0.9 too, at different steps.
    // The trajectory depends on the instruction set (AVX2 and AVX-512 sum in different
    // orders, and a run at this rate amplifies the last bit), so the test asks that the
    // head gets there within 1500 steps, checked every 50, not at one exact step.
    Trainer t(config(Task::PreviousToken, 4, 2e-2f));
    const auto done = [&](LossStats& ev, float& smallest) {
        ev = t.evaluate();
        const auto p = t.probe(t.task().probe).probe;
        const Matrix& W = p.weights[0][0];
        smallest = 1.0f;
        for (std::size_t i = 1; i < W.rows(); ++i) smallest = std::min(smallest, W(i, i - 1));
        return ev.loss < 1e-3 && accuracy(ev) == 1.0 && smallest > 0.9f;
    };
    LossStats ev;
    float smallest = 0;
    while (!done(ev, smallest) && t.steps() < 1500)
        for (int s = 0; s < 50; ++s) t.step();
    CAPTURE(t.steps(), ev.loss, accuracy(ev), smallest);
    REQUIRE(ev.loss < 1e-3);
    REQUIRE(accuracy(ev) == 1.0);
    REQUIRE(smallest > 0.9f);
}

TEST_CASE("previous token without positional encoding fails, and the probe shows why", "[model]") {
    TrainerConfig c = config(Task::PreviousToken);
    c.model.positional = false;
    Trainer t(c);
    train(t, 200);
    const LossStats ev = t.evaluate();
    CAPTURE(ev.loss, accuracy(ev));
    REQUIRE(accuracy(ev) < 0.6);  // measured 0.48 (guessing among the tokens seen so far)
    // Without positions, causal attention at position i cannot tell the order of tokens
    // 0..i−1: swapping the tokens at i−2 and i−1 leaves the prediction at i unchanged.
    std::vector<int> seq = t.task().probe, swapped = seq;
    for (std::size_t i = 2; i < seq.size(); ++i) {
        swapped = seq;
        std::swap(swapped[i - 2], swapped[i - 1]);
        const auto a = t.probe(seq).probe, b = t.probe(swapped).probe;
        CAPTURE(i);
        REQUIRE(a.predictions[i] == b.predictions[i]);
        for (std::size_t v = 0; v < a.probabilities.cols(); ++v)
            REQUIRE(a.probabilities(i, v) == Approx(b.probabilities(i, v)).margin(1e-5));
    }
}

TEST_CASE("without 1/sqrt(d_k) the softmax saturates and learning stalls (sort)", "[model]") {
    TrainerConfig on = config(Task::Sort), off = on;
    off.model.scale = false;
    Trainer a(on), b(off);
    // At initialisation both models hold the same weights: the softmax inputs differ by
    // exactly the factor √d_k = 8, and without it almost every row is one-hot.
    const auto pa = a.probe(a.task().probe).probe, pb = b.probe(b.task().probe).probe;
    REQUIRE(pb.logit_std[0][0] / pa.logit_std[0][0] == Approx(8.0).epsilon(1e-4));
    CAPTURE(pa.mean_max_weight[0][0], pb.mean_max_weight[0][0], pa.logit_std[0][0], pb.logit_std[0][0]);
    REQUIRE(pb.mean_max_weight[0][0] > 0.9);
    REQUIRE(pa.mean_max_weight[0][0] < pb.mean_max_weight[0][0]);
    // Per-step gradient norms spike now and then (the stalled model's most of all); their
    // medians over steps 25..249 are what the test compares. A sum over steps 150..249 was
    // dominated by a few spikes and moved with the instruction set's rounding: measured
    // median ratios 0.02 with AVX-512 (g++ and clang-14) and 0.0014 with g++ and AVX2.
    std::vector<double> na, nb;
    for (int s = 0; s < 250; ++s) {
        const auto sa = a.step(), sb = b.step();
        if (s >= 25) na.push_back(sa.batch.grad_logits_norm), nb.push_back(sb.batch.grad_logits_norm);
    }
    const auto median = [](std::vector<double> v) {
        std::nth_element(v.begin(), v.begin() + v.size() / 2, v.end());
        return v[v.size() / 2];
    };
    const double ga = median(na), gb = median(nb);
    const LossStats ea = a.evaluate(), eb = b.evaluate();
    CAPTURE(accuracy(ea), accuracy(eb), ea.loss, eb.loss, ga, gb);
    REQUIRE(accuracy(ea) >= 0.95);  // measured 0.978
    REQUIRE(accuracy(eb) < 0.75);   // measured 0.61, flat since step ~100
    REQUIRE(eb.loss > 5 * ea.loss);
    // the gradient reaching the scores through the saturated softmax is an order of magnitude smaller
    REQUIRE(gb < 0.1 * ga);
}

TEST_CASE("sort: the trained head finds the next-larger digit", "[model]") {
    // Trained in chunks of 100 steps until the probe is right, at most 1500 (500 with g++
    // and AVX2; at step 300 the probe's "4 → 7" row still looks at the separator). The
    // number of steps moves with the instruction set's rounding; what the head learns does not.
    Trainer t(config(Task::Sort));
    const std::vector<int> probe = t.task().probe;  // 3 9 1 7 4 | 1 3 4 7 9
    const std::vector<int> greedy{8, 2, 5, 0, 6, 10, 0, 2, 5, 6, 8};
    // Where the query at p (the separator or a sorted digit) looks most.
    const auto argmax = [](const Matrix& W, std::size_t p) {
        std::size_t arg = 0;
        for (std::size_t j = 1; j <= p; ++j)
            if (W(p, j) > W(p, arg)) arg = j;
        return arg;
    };
    const auto learned = [&] {
        const auto r = t.probe(probe);
        const Matrix& W = r.probe.weights[0][0];
        for (std::size_t p = 5; p < 10; ++p) {
            const std::size_t arg = argmax(W, p);
            if (arg >= 5 || r.probe.tokens[arg] != r.targets[p] || W(p, arg) <= 0.8f || r.probe.predictions[p] != r.targets[p])
                return false;
        }
        return t.probe({8, 2, 5, 0, 6}).probe.tokens == greedy;
    };
    train(t, 300);
    while (!learned() && t.steps() < 1500) train(t, t.steps() + 100);
    CAPTURE(t.steps());
    const auto r = t.probe(probe);
    const Matrix& W = r.probe.weights[0][0];
    for (std::size_t p = 5; p < 10; ++p) {
        // the query at p looks for the next sorted digit among the inputs
        const int want = r.targets[p];
        const std::size_t arg = argmax(W, p);
        CAPTURE(p, want, arg, W(p, arg));
        REQUIRE(arg < 5);
        REQUIRE(r.probe.tokens[arg] == want);
        REQUIRE(W(p, arg) > 0.8f);  // measured 0.95..1.00
        REQUIRE(r.probe.predictions[p] == want);
    }
    // five digits alone are completed greedily by the model
    REQUIRE(t.probe({8, 2, 5, 0, 6}).probe.tokens == greedy);
}

TEST_CASE("two relations with narrow heads: each of two heads takes one offset, and one head alone is stuck", "[model]") {
    // Each head hands on only d_v = 2 numbers: enough to name one digit, not two. d_k = 16
    // as on the page (with 64, Adam moves the scores twice as fast and in ~1 run of 6 both
    // heads lock onto i−1 before either finds i−3; see docs/training.md).
    TrainerConfig two = config(Task::TwoRelations), one;
    two.model.heads = 2;
    two.model.d_v = 2;
    two.model.d_k = 16;
    one = two;
    one.model.heads = 1;
    Trainer a(one), b(two);
    train(a, 800);
    train(b, 800);
    const LossStats ea = a.evaluate(), eb = b.evaluate();
    CAPTURE(ea.loss, eb.loss, accuracy(ea), accuracy(eb));
    REQUIRE(accuracy(eb) >= 0.98);  // measured 0.993 (loss 0.02)
    REQUIRE(accuracy(ea) < 0.3);    // measured 0.09: the digit at i−1 right, the one at i−3 a guess
    REQUIRE(ea.loss > 0.5);         // measured 2.5

    // On the probe, one head reads from i−1 and the other from i−3, and neither from both.
    // offset_weight averages the rows where both i−1 and i−3 exist (i >= 3): in rows 1 and
    // 2 the far head's weight has to go somewhere, and that is not a choice of offset.
    const Probe p = b.probe(b.task().probe).probe;
    const auto& w = p.offset_weight[0];
    CAPTURE(w[0][1], w[0][3], w[1][1], w[1][3]);
    const std::size_t near = w[0][1] > w[1][1] ? 0 : 1, far = 1 - near;
    REQUIRE(w[near][1] > 0.8);   // measured 0.97
    REQUIRE(w[far][3] > 0.9);    // measured 0.96
    REQUIRE(w[near][3] < 0.05);
    REQUIRE(w[far][1] < 0.05);
    const Matrix& W = p.weights[0][far];
    double sum = 0;
    for (std::size_t i = 3; i < W.rows(); ++i) {
        CAPTURE(i);
        REQUIRE(W(i, i - 1) < 0.05);
        sum += W(i, i - 3);
    }
    // offset_weight is the mean of the diagonal i − o of the weight matrix over rows 3..T−1
    REQUIRE(w[far][3] == Approx(sum / double(W.rows() - 3)).epsilon(1e-6));
    double near_sum = 0;
    for (std::size_t i = 3; i < W.rows(); ++i) near_sum += p.weights[0][near](i, i - 1);
    REQUIRE(w[near][1] == Approx(near_sum / double(W.rows() - 3)).epsilon(1e-6));
    // without a task every row that has the offset counts
    const Probe bare = b.model().probe(b.task().probe);
    double all = 0;
    for (std::size_t i = 1; i < W.rows(); ++i) all += p.weights[0][far](i, i - 1);
    REQUIRE(bare.offset_weight[0][far][1] == Approx(all / double(W.rows() - 1)).epsilon(1e-6));
    REQUIRE(bare.offset_weight[0][far][1] > 0.1);  // rows 1 and 2 (measured 0.14)
    // The single head took i−1 and has no room for i−3.
    const Probe p1 = a.probe(a.task().probe).probe;
    const auto& w1 = p1.offset_weight[0][0];
    CAPTURE(w1[1], w1[3]);
    REQUIRE(w1[1] > 0.5);
    REQUIRE(w1[3] < 0.1);
}

TEST_CASE("bad configurations and inputs are rejected with a message", "[model]") {
    TrainerConfig c = config(Task::PreviousToken);
    c.model.heads = 3;  // does not divide d_model = 32
    REQUIRE_THROWS_AS(Trainer(c), ValueError);
    c.model.heads = 1;
    c.model.dropout = 1.0f;
    REQUIRE_THROWS_AS(Trainer(c), ValueError);
    c.model.dropout = 0.1f;
    c.model.layers = 0;
    REQUIRE_THROWS_AS(Trainer(c), ValueError);
    c.model.layers = 1;
    c.adam.lr = -1;
    REQUIRE_THROWS_AS(Trainer(c), ValueError);
    c.adam.lr = 1e-2f;
    c.batch = 0;
    REQUIRE_THROWS_AS(Trainer(c), ValueError);
    c.batch = 4;
    Trainer t(c);
    REQUIRE_THROWS_AS(t.probe({1}), ValueError);                       // too short
    REQUIRE_THROWS_AS(t.probe({1, 2, 3, 4, 5, 6, 7, 8, 9}), ValueError);  // too long
    REQUIRE_THROWS_AS(t.probe({1, 12}), ValueError);                   // not a digit
    try {
        t.probe({1, 2, 3, 4, 5, 6, 7, 8, 9});
    } catch (const ValueError& e) {
        REQUIRE(std::string(e.what()).find("2 to 8 tokens") != std::string::npos);
    }
    REQUIRE(t.step().step == 1);  // still usable after errors
}

TEST_CASE("Adam follows Kingma & Ba's update with bias correction", "[model]") {
    std::vector<Param<float>> ps(1);
    ps[0].name = "w";
    ps[0].value = Matrix{{1.0f, -2.0f, 0.5f}};
    ps[0].grad = Matrix{{0.5f, -0.25f, 0.0f}};
    AdamConfig ac;
    ac.lr = 0.1f;
    Adam adam(ac);
    adam.step(ps);
    // step 1: m̂ = g, v̂ = g², so θ moves by −lr·g/(|g| + ε): a full lr against the sign
    REQUIRE(ps[0].value(0, 0) == Approx(0.9).epsilon(1e-6));
    REQUIRE(ps[0].value(0, 1) == Approx(-1.9).epsilon(1e-6));
    REQUIRE(ps[0].value(0, 2) == 0.5f);  // zero gradient, no move
    ps[0].grad = Matrix{{-0.5f, -0.25f, 1.0f}};
    adam.step(ps);
    // step 2 by hand for entry 0: m = 0.9·0.05 + 0.1·(−0.5) = −0.005, v = 0.999·0.00025 + 0.001·0.25
    const double m = 0.9 * 0.05 - 0.05, v = 0.999 * 0.00025 + 0.001 * 0.25;
    const double mh = m / (1 - 0.81), vh = v / (1 - 0.999 * 0.999);
    REQUIRE(ps[0].value(0, 0) == Approx(0.9 - 0.1 * mh / (std::sqrt(vh) + 1e-8)).epsilon(1e-5));
    REQUIRE(adam.steps() == 2);
    REQUIRE_THROWS_AS(Adam(AdamConfig{0.0f}), ValueError);
}

TEST_CASE("induction task: a repeated run of random letters at a varying offset, two parts", "[model]") {
    const TaskInfo info = task_info(Task::Induction);
    REQUIRE(task_from_name("induction") == Task::Induction);
    REQUIRE(info.parts == std::vector<std::string>{"first", "repeated"});
    const int pad = info.separator;
    REQUIRE(pad == 26);
    // A B C, then B C again: the target is the next token up to the padding; "repeated" where
    // the token occurred before and its successor there is the target.
    const std::vector<int> seq = {0, 1, 2, 1, 2, pad, pad};
    REQUIRE(task_targets(Task::Induction, seq) == std::vector<int>{1, 2, 1, 2, -1, -1, -1});
    REQUIRE(task_parts(Task::Induction, seq) == std::vector<int>{0, 0, 0, 1, -1, -1, -1});
    REQUIRE(task_parts(Task::PreviousToken, {1, 2, 3}).empty());

    const Batch b = training_batch(Task::Induction, 400, 3);
    REQUIRE(b.parts.size() == b.tokens.size());
    std::set<std::size_t> lengths, starts;
    std::size_t collisions = 0, total_repeated = 0, total_second = 0;
    for (std::size_t s = 0; s < b.size; ++s) {
        const std::vector<int> t(b.tokens.begin() + s * b.seq_len, b.tokens.begin() + (s + 1) * b.seq_len);
        std::size_t n = 0;  // tokens before the padding
        while (n < t.size() && t[n] != pad) ++n;
        for (std::size_t k = n; k < t.size(); ++k) REQUIRE(t[k] == pad);
        // the repeat copies the L letters before it, for some L in 3..11 (letters may recur,
        // so more than one L can fit: the smallest is taken)
        std::size_t L = 3;
        while (L <= 11 && !(2 * L <= n && std::equal(t.begin() + std::ptrdiff_t(n - L), t.begin() + std::ptrdiff_t(n),
                                                     t.begin() + std::ptrdiff_t(n - 2 * L))))
            ++L;
        CAPTURE(s, n, L);
        REQUIRE(L <= 11);
        lengths.insert(L);
        starts.insert(n - L);
        // the repeated part: positions whose letter occurred before with this successor, almost
        // all in the second copy (every position of it but its last, unless the letter occurred
        // earlier with another successor; a bigram can also recur by chance before the repeat)
        for (std::size_t k = 0; k < t.size(); ++k) total_repeated += b.parts[s * b.seq_len + k] == 1;
        total_second += L - 1;
        // letters are drawn independently: some sequence has a letter twice before its repeat
        std::set<int> distinct(t.begin(), t.begin() + std::ptrdiff_t(n - L));
        collisions += distinct.size() < n - L;
    }
    REQUIRE(collisions > 40);
    CAPTURE(total_repeated, total_second);
    REQUIRE(total_repeated > total_second * 8 / 10);  // most of the second copy is predictable
    REQUIRE(total_repeated < total_second * 11 / 10);
    REQUIRE(lengths.size() == 9);   // every L of 3..11 occurs
    REQUIRE(starts.size() >= 12);  // the repeat starts at many positions
}

TEST_CASE("per-part losses add up to the loss, and ablating a head changes it", "[model]") {
    TrainerConfig c = config(Task::Induction, 2, 3e-3f);
    c.model.layers = 2;
    c.model.heads = 2;
    Trainer t(c);
    for (int k = 0; k < 20; ++k) t.step();
    const Batch held = held_out_batch(Task::Induction, 64);
    const LossStats all = t.model().evaluate(held);
    REQUIRE(all.parts.size() == 2);
    const PartStats &a = all.parts[0], &r = all.parts[1];
    REQUIRE(a.count + r.count == all.count);
    REQUIRE(a.correct + r.correct == all.correct);
    REQUIRE((a.loss * double(a.count) + r.loss * double(r.count)) / double(all.count) == Approx(all.loss).epsilon(1e-5));
    // a batch without parts has none
    REQUIRE(held_out_batch(Task::PreviousToken, 8).parts.empty());

    // ablation: no flag set is the plain evaluation; each head zeroed changes the loss
    REQUIRE(t.model().evaluate(held, std::vector<bool>(4, false)).loss == all.loss);
    for (std::size_t k = 0; k < 4; ++k) {
        std::vector<bool> zeroed(4, false);
        zeroed[k] = true;
        CAPTURE(k);
        REQUIRE(t.model().evaluate(held, zeroed).loss != all.loss);
    }
    REQUIRE_THROWS_AS(t.model().evaluate(held, std::vector<bool>(3, false)), ShapeError);
}

TEST_CASE("attention x value norm: the probe's norms of v_j W_O per head", "[model]") {
    ModelConfig c;
    c.vocab_in = c.vocab_out = 6;
    c.max_len = 5;
    c.d_model = 8;
    c.heads = 2;
    c.d_k = 4;
    c.layers = 1;
    TinyTransformer m(c);
    const std::vector<int> tokens = {1, 4, 2, 5, 0};
    const Probe p = m.probe(tokens);
    REQUIRE(p.value_norm.size() == 1);
    REQUIRE(p.value_norm[0].size() == 2);
    REQUIRE(p.value_norm[0][0].size() == 5);
    for (double v : p.value_norm[0][1]) REQUIRE(v > 0);
    // W_O's rows of head 1 doubled: head 1's norms double, head 0's stay; its rows zeroed: 0
    std::size_t wo = 0;
    while (m.params()[wo].name != "layer1.Wo") ++wo;
    const std::size_t dv = c.d_model / c.heads;
    for (std::size_t i = dv; i < 2 * dv; ++i)
        for (std::size_t j = 0; j < c.d_model; ++j) m.params()[wo].value(i, j) *= 2.0f;
    const Probe q = m.probe(tokens);
    for (std::size_t j = 0; j < 5; ++j) {
        REQUIRE(q.value_norm[0][0][j] == p.value_norm[0][0][j]);
        REQUIRE(q.value_norm[0][1][j] == Approx(2 * p.value_norm[0][1][j]).epsilon(1e-6));
    }
    for (std::size_t i = 0; i < dv; ++i)
        for (std::size_t j = 0; j < c.d_model; ++j) m.params()[wo].value(i, j) = 0.0f;
    const Probe z = m.probe(tokens);
    for (double v : z.value_norm[0][0]) REQUIRE(v == 0.0);
}

TEST_CASE("pre-LayerNorm adds a gain and a bias before each block and the read-out", "[model]") {
    ModelConfig c;
    c.layers = 2;
    c.mlp_hidden = 16;
    const TinyTransformer plain(c);
    c.layer_norm = true;
    const TinyTransformer ln(c);
    REQUIRE(ln.parameter_count() == plain.parameter_count() + 2 * c.d_model * (2 * c.layers + 1));
    std::vector<std::string> names;
    for (const auto& p : ln.params()) names.push_back(p.name);
    REQUIRE(names[1] == "layer1.ln1.gain");
    REQUIRE(std::count(names.begin(), names.end(), "layer2.ln2.bias") == 1);
    REQUIRE(names[names.size() - 4] == "ln_f.gain");
    // the other weights start as without LayerNorm (nothing more is drawn)
    for (const auto& p : plain.params()) {
        const auto it = std::find_if(ln.params().begin(), ln.params().end(), [&](const auto& q) { return q.name == p.name; });
        REQUIRE(it != ln.params().end());
        REQUIRE(std::equal(p.value.data(), p.value.data() + p.value.size(), it->value.data()));
    }
    // and it learns the previous token as well
    TrainerConfig tc = config(Task::PreviousToken);
    tc.model.layer_norm = true;
    Trainer t(tc);
    const double best = train(t, 300);
    CAPTURE(best);
    REQUIRE(best < 0.1);
}

TEST_CASE("learning-rate schedule: linear warm-up, cosine decay to the floor", "[model]") {
    const LrSchedule s{1e-2f, 1e-3f, 10, 110};
    REQUIRE(scheduled_lr(s, 0) == Approx(1e-3));
    REQUIRE(scheduled_lr(s, 9) == Approx(1e-2));
    REQUIRE(scheduled_lr(s, 10) == Approx(1e-2));
    REQUIRE(scheduled_lr(s, 60) == Approx(5.5e-3));  // half way: the mean of peak and floor
    REQUIRE(scheduled_lr(s, 110) == Approx(1e-3));
    REQUIRE(scheduled_lr(s, 1000) == Approx(1e-3));
    for (std::size_t t = 10; t < 110; ++t) REQUIRE(scheduled_lr(s, t + 1) <= scheduled_lr(s, t));
    REQUIRE_THROWS_AS(scheduled_lr({1e-3f, 1e-2f, 0, 10}, 0), ValueError);  // floor above peak
    REQUIRE_THROWS_AS(scheduled_lr({1e-2f, 1e-3f, 20, 10}, 0), ValueError);  // warm-up too long
    Adam adam(AdamConfig{1e-2f});
    adam.set_lr(2e-3f);
    REQUIRE(adam.lr() == 2e-3f);
    REQUIRE_THROWS_AS(adam.set_lr(0.0f), ValueError);
    REQUIRE(adam.lr() == 2e-3f);
}
