// The scale factor 1/√d_k, what it does to softmax and its gradient, and the variance
// experiment behind it (score_scale.hpp).
#include "attn/score_scale.hpp"

#include <cmath>
#include <limits>
#include <string>

#include "attn/attention.hpp"
#include "attn/errors.hpp"
#include "attn/grad.hpp"
#include "attn/random.hpp"
#include "attn/reductions.hpp"

namespace attn {

namespace {
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
}  // namespace

ScalingEffect scaling_effect(ConstMatrixView S, float factor) {
    if (!std::isfinite(factor) || !(factor > 0))
        throw ValueError("scaling_effect: the factor must be finite and > 0, got " + std::to_string(factor));
    ScalingEffect e;
    e.factor = factor;
    e.scaled = scale(S, factor);
    e.weights = softmax(S);
    e.weights_scaled = softmax(e.scaled);
    e.grad = softmax_jacobian_diag(e.weights);
    e.grad_scaled = softmax_jacobian_diag(e.weights_scaled);
    const std::size_t r = S.rows();
    e.top = Matrix(r, 1);
    e.grad_top = Matrix(r, 1);
    e.grad_top_scaled = Matrix(r, 1);
    e.ratio = Matrix(r, 1);
    for (std::size_t i = 0; i < r; ++i) {
        std::size_t top = 0;
        for (std::size_t j = 1; j < S.cols(); ++j)
            if (S(i, j) > S(i, top)) top = j;
        e.top(i, 0) = float(top);
        if (S.cols() == 0) {
            e.grad_top(i, 0) = e.grad_top_scaled(i, 0) = e.ratio(i, 0) = float(kNaN);
            continue;
        }
        // In double from the float weights, so the ratio is not rounded twice.
        const double p0 = e.weights(i, top), p1 = e.weights_scaled(i, top);
        const double g0 = p0 * (1.0 - p0), g1 = p1 * (1.0 - p1);
        e.grad_top(i, 0) = float(g0);
        e.grad_top_scaled(i, 0) = float(g1);
        e.ratio(i, 0) = g0 > 0 ? float(g1 / g0) : (g1 > 0 ? std::numeric_limits<float>::infinity() : float(kNaN));
    }
    return e;
}

ScoreScale score_scale(std::size_t d_k) {
    if (d_k == 0) throw ValueError("score_scale: d_k must be at least 1");
    ScoreScale s;
    s.d_k = d_k;
    s.sqrt_dk = std::sqrt(double(d_k));
    s.factor = 1.0f / std::sqrt(float(d_k));  // exactly what attention() uses
    return s;
}

DotProductSample sample_dot_products(std::size_t d_k, std::size_t count, std::uint64_t seed, std::size_t first) {
    if (d_k == 0) throw ValueError("sample_dot_products: d_k must be at least 1");
    if (count == 0) throw ValueError("sample_dot_products: count must be at least 1");
    check_size(count, d_k, "sample_dot_products");
    if (first > kMaxElements - count)
        throw SizeError("sample_dot_products: first + count = " + std::to_string(first) + " + " + std::to_string(count) +
                        " exceeds " + std::to_string(kMaxElements) + " pairs");
    if (seed > (std::uint64_t{1} << 62)) throw ValueError("sample_dot_products: seed must be below 2^62");
    DotProductSample s;
    s.d_k = d_k;
    s.count = count;
    s.first = first;
    s.seed = seed;
    const Matrix q = random_normal_rows(first, count, d_k, 2 * seed), k = random_normal_rows(first, count, d_k, 2 * seed + 1);
    s.dots = row_dots(q, k);
    s.scaled = scale(s.dots, score_scale(d_k).factor);
    s.raw = moments(s.dots);
    s.normalized = moments(s.scaled);
    s.expected_variance = double(d_k);
    return s;
}

}  // namespace attn
