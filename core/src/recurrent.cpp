#include "attn/recurrent.hpp"

#include <cmath>
#include <string>
#include <vector>

namespace attn {

Matrix recurrent_scan(ConstMatrixView X, float retention) {
    if (!std::isfinite(retention) || retention < 0.0f || retention >= 1.0f)
        throw ValueError("recurrent_scan: retention r must be in [0, 1), got " + std::to_string(retention));
    Matrix H(X.rows(), X.cols());
    std::vector<double> h(X.cols(), 0.0);  // h_{-1} = 0
    const double r = retention;
    for (std::size_t t = 0; t < X.rows(); ++t)  // t = 0, 1, ...: each step needs the previous one
        for (std::size_t c = 0; c < X.cols(); ++c) {
            h[c] = r * h[c] + (1.0 - r) * double(X(t, c));
            H(t, c) = float(h[c]);
        }
    return H;
}

}  // namespace attn
