// Attention × value norm, attention rollout, a token matrix by character (attribution.hpp).
#include "attn/attribution.hpp"

#include <cmath>
#include <string>

#include "attn/errors.hpp"

namespace attn {

Matrix norm_weights(ConstMatrixView P, const std::vector<double>& value_norm) {
    if (value_norm.size() != P.cols())
        throw ShapeError("norm_weights: " + std::to_string(value_norm.size()) + " value norms for weights " + P.shape());
    Matrix N(P.rows(), P.cols());
    for (std::size_t i = 0; i < P.rows(); ++i)
        for (std::size_t j = 0; j < P.cols(); ++j) N(i, j) = float(double(P(i, j)) * value_norm[j]);
    return N;
}

double weight_norm_distance(ConstMatrixView P, ConstMatrixView N) {
    if (P.rows() != N.rows() || P.cols() != N.cols())
        throw ShapeError("weight_norm_distance: weights " + P.shape() + " and norms " + N.shape());
    double total = 0;
    std::size_t rows = 0;
    for (std::size_t i = 0; i < P.rows(); ++i) {
        double sum = 0;
        for (std::size_t j = 0; j < N.cols(); ++j) sum += double(N(i, j));
        if (!(sum > 0)) continue;
        double d = 0;
        for (std::size_t j = 0; j < N.cols(); ++j) d += std::abs(double(P(i, j)) - double(N(i, j)) / sum);
        total += 0.5 * d;
        ++rows;
    }
    return rows ? total / double(rows) : 0.0;
}

Matrix attention_rollout(const Probe& probe) {
    if (probe.weights.empty() || probe.weights[0].empty()) throw ValueError("attention_rollout: the probe has no heads");
    const std::size_t T = probe.weights[0][0].rows();
    std::vector<double> R(T * T, 0.0), A(T * T), next(T * T);
    for (std::size_t i = 0; i < T; ++i) R[i * T + i] = 1.0;
    for (const auto& layer : probe.weights) {
        const double per_head = 0.5 / double(layer.size());
        for (std::size_t i = 0; i < T; ++i)
            for (std::size_t j = 0; j < T; ++j) {
                double a = i == j ? 0.5 : 0.0;
                for (const Matrix& P : layer) a += per_head * double(P(i, j));
                A[i * T + j] = a;
            }
        // R ← Ã_ℓ R
        for (std::size_t i = 0; i < T; ++i)
            for (std::size_t j = 0; j < T; ++j) {
                double s = 0;
                for (std::size_t k = 0; k < T; ++k) s += A[i * T + k] * R[k * T + j];
                next[i * T + j] = s;
            }
        R.swap(next);
    }
    Matrix out(T, T);
    for (std::size_t k = 0; k < T * T; ++k) out.data()[k] = float(R[k]);
    return out;
}

Matrix group_by_character(ConstMatrixView P, const std::vector<std::size_t>& group) {
    if (group.size() != P.rows() || P.rows() != P.cols())
        throw ShapeError("group_by_character: " + std::to_string(group.size()) + " group ids for a " + P.shape() +
                         " matrix");
    if (group.empty()) return Matrix(0, 0);
    for (std::size_t t = 0; t < group.size(); ++t)
        if ((t == 0 && group[0] != 0) || (t > 0 && group[t] != group[t - 1] && group[t] != group[t - 1] + 1))
            throw ValueError("group_by_character: group ids must start at 0 and go up by at most 1 per token");
    const std::size_t C = group.back() + 1, T = P.rows();
    Matrix out(C, C);
    for (std::size_t i = 0; i < T; ++i) {
        if (i + 1 < T && group[i + 1] == group[i]) continue;  // not the character's last token
        for (std::size_t j = 0; j < T; ++j) out(group[i], group[j]) += P(i, j);
    }
    return out;
}

}  // namespace attn
