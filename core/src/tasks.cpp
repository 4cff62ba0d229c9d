// The toy tasks of the live-training chapter (model.hpp): data generation, targets and
// the held-out split. Everything is drawn from attn::uniform01's counter stream, so a
// seed names the same batches natively and in WebAssembly.
#include <algorithm>
#include <string>

#include "splitmix.hpp"
#include "attn/model.hpp"
#include "attn/random.hpp"

namespace attn {

namespace {
constexpr std::size_t kDigits = 10;
constexpr std::size_t kSortN = 5;  // digits to sort
constexpr int kSep = 10;           // the sort task's separator token
constexpr std::size_t kLetters = 26, kInductionT = 22, kMinRepeat = 3, kMaxRepeat = 11;
constexpr int kPad = 26;  // the induction task's padding after the repeat

std::uint64_t mix(std::uint64_t z) { return detail::splitmix64(z); }

std::vector<std::string> letter_labels() {
    std::vector<std::string> out;
    for (std::size_t d = 0; d < kLetters; ++d) out.push_back(std::string(1, char('A' + d)));
    return out;
}

std::vector<std::string> digit_labels() {
    std::vector<std::string> out;
    for (std::size_t d = 0; d < kDigits; ++d) out.push_back(std::to_string(d));
    return out;
}

// The tokens that determine a sequence (for sort: the five inputs; the rest follows).
std::size_t free_tokens(Task task, std::size_t n) { return task == Task::Sort ? std::min(n, kSortN) : n; }

// One sequence of the task from the uniforms of counters n, n+1, ...
std::vector<int> draw(Task task, std::uint64_t seed, std::uint64_t& n) {
    const TaskInfo info = task_info(task);
    std::vector<int> seq;
    if (task == Task::Induction) {
        int letters[kInductionT];
        const std::size_t L =
            kMinRepeat + std::min(kMaxRepeat - kMinRepeat, std::size_t(uniform01(seed, n++) * double(kMaxRepeat - kMinRepeat + 1)));
        const std::size_t room = kInductionT - 2 * L;  // prefix length p uniform in 0..room
        const std::size_t p = std::min(room, std::size_t(uniform01(seed, n++) * double(room + 1)));
        // p + L letters drawn independently (a letter may occur more than once: that is
        // what makes layer 1 learn a previous-token head rather than a duplicate-token head,
        // docs/training.md), the last L again, padding to T
        for (std::size_t i = 0; i < p + L; ++i) {
            letters[i] = std::min(int(uniform01(seed, n++) * double(kLetters)), int(kLetters) - 1);
            seq.push_back(letters[i]);
        }
        seq.insert(seq.end(), letters + p, letters + p + L);
        seq.resize(kInductionT, kPad);
    } else if (task == Task::Sort) {
        int pool[kDigits];
        for (std::size_t d = 0; d < kDigits; ++d) pool[d] = int(d);
        // Partial Fisher–Yates: the first five of a uniformly random permutation.
        for (std::size_t i = 0; i < kSortN; ++i) {
            const std::size_t j = i + std::size_t(uniform01(seed, n++) * double(kDigits - i));
            std::swap(pool[i], pool[std::min(j, kDigits - 1)]);
            seq.push_back(pool[i]);
        }
        std::vector<int> sorted(seq);
        std::sort(sorted.begin(), sorted.end());
        seq.push_back(kSep);
        seq.insert(seq.end(), sorted.begin(), sorted.end());
    } else {
        for (std::size_t t = 0; t < info.seq_len; ++t)
            seq.push_back(std::min(int(uniform01(seed, n++) * double(kDigits)), int(kDigits) - 1));
    }
    return seq;
}

void check_tokens(const TaskInfo& info, const std::vector<int>& tokens) {
    for (std::size_t t = 0; t < tokens.size(); ++t)
        if (tokens[t] < 0 || std::size_t(tokens[t]) >= info.vocab_in)
            throw ValueError(info.name + ": token " + std::to_string(t + 1) + " is " + std::to_string(tokens[t]) +
                             "; tokens are 0.." + std::to_string(info.vocab_in - 1));
}
}  // namespace

TaskInfo task_info(Task task) {
    TaskInfo info;
    info.task = task;
    switch (task) {
        case Task::PreviousToken:
            info.name = "previous-token";
            info.vocab_in = info.vocab_out = kDigits;
            info.seq_len = 8;
            info.min_len = 2;
            info.max_len = 8;
            info.probe = {3, 1, 4, 1, 5, 9, 2, 6};
            info.offsets = {1};
            info.token_labels = info.output_labels = digit_labels();
            break;
        case Task::TwoRelations:
            info.name = "two-relations";
            info.vocab_in = kDigits;
            info.vocab_out = kDigits * kDigits;
            info.seq_len = 8;
            info.min_len = 4;
            info.max_len = 8;
            info.probe = {2, 7, 1, 8, 2, 8, 1, 8};
            info.offsets = {1, 3};
            info.token_labels = digit_labels();
            for (std::size_t a = 0; a < kDigits; ++a)
                for (std::size_t b = 0; b < kDigits; ++b) info.output_labels.push_back(std::to_string(a) + std::to_string(b));
            break;
        case Task::Sort:
            info.name = "sort";
            info.vocab_in = kDigits + 1;
            info.vocab_out = kDigits;
            info.seq_len = 2 * kSortN + 1;
            info.min_len = kSortN;
            info.max_len = 2 * kSortN + 1;
            info.separator = kSep;
            info.probe = {3, 9, 1, 7, 4, kSep, 1, 3, 4, 7, 9};
            info.token_labels = digit_labels();
            info.token_labels.push_back("|");
            info.output_labels = digit_labels();
            break;
        case Task::Induction:
            info.name = "induction";
            info.vocab_in = info.vocab_out = kLetters + 1;
            info.seq_len = kInductionT;
            info.min_len = 2;
            info.max_len = kInductionT;
            info.separator = kPad;
            // Q W E R T Y U I O P, the same again (L = 10), two pads
            info.probe = {16, 22, 4, 17, 19, 24, 20, 8, 14, 15, 16, 22, 4, 17, 19, 24, 20, 8, 14, 15, kPad, kPad};
            info.token_labels = info.output_labels = letter_labels();
            info.token_labels.push_back("·");
            info.output_labels.push_back("·");
            info.parts = {"first", "repeated"};
            break;
    }
    return info;
}

Task task_from_name(const std::string& name) {
    for (Task t : {Task::PreviousToken, Task::TwoRelations, Task::Sort, Task::Induction})
        if (task_info(t).name == name) return t;
    throw ValueError("task: no task named '" + name +
                     "'; the tasks are previous-token, two-relations, sort and induction");
}

std::vector<int> task_targets(Task task, const std::vector<int>& tokens) {
    const TaskInfo info = task_info(task);
    check_tokens(info, tokens);
    std::vector<int> targets(tokens.size(), -1);
    switch (task) {
        case Task::PreviousToken:
            for (std::size_t i = 1; i < tokens.size(); ++i) targets[i] = tokens[i - 1];
            break;
        case Task::TwoRelations:
            for (std::size_t i = 3; i < tokens.size(); ++i) targets[i] = tokens[i - 3] * int(kDigits) + tokens[i - 1];
            break;
        case Task::Sort: {
            if (tokens.size() < kSortN)
                throw ValueError("sort: give " + std::to_string(kSortN) + " different digits, got " +
                                 std::to_string(tokens.size()));
            std::vector<int> inputs(tokens.begin(), tokens.begin() + kSortN);
            for (std::size_t i = 0; i < kSortN; ++i) {
                if (inputs[i] == kSep)
                    throw ValueError("sort: the first " + std::to_string(kSortN) + " tokens must be digits");
                for (std::size_t j = 0; j < i; ++j)
                    if (inputs[j] == inputs[i])
                        throw ValueError("sort: the digits must be different; " + std::to_string(inputs[i]) +
                                         " appears twice");
            }
            std::vector<int> sorted(inputs);
            std::sort(sorted.begin(), sorted.end());
            if (tokens.size() > kSortN && tokens[kSortN] != kSep)
                throw ValueError("sort: token " + std::to_string(kSortN + 1) + " must be the separator");
            for (std::size_t k = kSortN + 1; k < tokens.size(); ++k)
                if (tokens[k] == kSep)
                    throw ValueError("sort: only one separator, after the " + std::to_string(kSortN) + " digits");
            // At the separator and at each sorted digit: the next sorted digit.
            for (std::size_t p = kSortN; p < tokens.size() && p < 2 * kSortN; ++p) targets[p] = sorted[p - kSortN];
            break;
        }
        case Task::Induction:
            // the next token, up to the first padding (nothing is scored from there on)
            for (std::size_t i = 0; i + 1 < tokens.size() && tokens[i + 1] != kPad; ++i) targets[i] = tokens[i + 1];
            break;
    }
    return targets;
}

std::vector<int> task_parts(Task task, const std::vector<int>& tokens) {
    if (task != Task::Induction) return {};
    const std::vector<int> targets = task_targets(task, tokens);
    std::vector<int> parts(tokens.size(), -1);
    for (std::size_t i = 0; i < tokens.size(); ++i) {
        if (targets[i] < 0) continue;
        std::size_t j = 0;
        while (j < i && tokens[j] != tokens[i]) ++j;  // the first occurrence
        parts[i] = j + 1 < i && tokens[j + 1] == targets[i] ? 1 : 0;
    }
    return parts;
}

bool is_held_out(Task task, const std::vector<int>& tokens) {
    std::uint64_t h = mix(0x68656c646f7574ULL + std::uint64_t(task));
    for (std::size_t t = 0; t < free_tokens(task, tokens.size()); ++t) h = mix(h ^ std::uint64_t(tokens[t] + 1));
    return (h & 7) == 0;
}

namespace {
Batch make_batch(Task task, std::size_t size, std::uint64_t seed, bool held_out) {
    if (size == 0) throw ValueError("batch: size must be at least 1");
    const TaskInfo info = task_info(task);
    check_size(size, info.seq_len, "batch");
    Batch b;
    b.size = size;
    b.seq_len = info.seq_len;
    std::uint64_t n = 0;
    for (std::size_t s = 0; s < size; ++s) {
        std::vector<int> seq;
        do seq = draw(task, seed, n);
        while (is_held_out(task, seq) != held_out);
        const std::vector<int> targets = task_targets(task, seq);
        b.tokens.insert(b.tokens.end(), seq.begin(), seq.end());
        b.targets.insert(b.targets.end(), targets.begin(), targets.end());
        const std::vector<int> parts = task_parts(task, seq);
        b.parts.insert(b.parts.end(), parts.begin(), parts.end());
    }
    return b;
}
}  // namespace

Batch training_batch(Task task, std::size_t size, std::uint64_t seed) { return make_batch(task, size, seed, false); }

Batch held_out_batch(Task task, std::size_t size) {
    return make_batch(task, size, 0x6576616c2d736574ULL + std::uint64_t(task), true);
}

}  // namespace attn
