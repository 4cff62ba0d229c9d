#include "attn/matrix.hpp"

#include <algorithm>
#include <limits>

namespace attn {

namespace {
// check_size's errors, kept out of its common path (no frame set up for them there).
[[gnu::noinline]] void check_size_slow(std::size_t rows, std::size_t cols, const char* what) {
    // Each side on its own too: a 2^60 x 0 matrix holds nothing, but a loop over its rows
    // would never end (found by tests/fuzz/fuzz_sizes).
    if (rows > kMaxElements || cols > kMaxElements)
        throw SizeError(std::string(what) + ": " + shape_str(rows, cols) + " has a side longer than the limit of " +
                        std::to_string(kMaxElements));
    const bool overflows = cols != 0 && rows > std::numeric_limits<std::size_t>::max() / cols;
    if (overflows)
        throw SizeError(std::string(what) + ": " + shape_str(rows, cols) +
                        " has more elements than the limit of " + std::to_string(kMaxElements));
    if (rows * cols > kMaxElements)
        throw SizeError(std::string(what) + ": " + shape_str(rows, cols) + " is " +
                        std::to_string(rows * cols) + " elements, more than the limit of " +
                        std::to_string(kMaxElements));
}
}  // namespace

void check_size(std::size_t rows, std::size_t cols, const char* what) {
    // The common case: sides under 2^16 cannot overflow the product, even with a 32-bit
    // size_t (WebAssembly), and are under the limit.
    if ((rows | cols) < 65536 && rows * cols <= kMaxElements) return;
    check_size_slow(rows, cols, what);
}

void throw_bad_view(const void* data, std::size_t rows, std::size_t cols, std::size_t stride) {
    if (rows > kMaxElements || cols > kMaxElements) check_size(rows, cols, "view");
    if (data == nullptr && rows != 0 && cols != 0)
        throw ValueError("view: a " + shape_str(rows, cols) + " view needs data, got a null pointer");
    throw ShapeError("view: a stride of " + std::to_string(stride) + " is less than the " +
                     std::to_string(cols) + " columns of a " + shape_str(rows, cols) +
                     " view; its rows would overlap");
}

ConstMatrixView ConstMatrixView::cols_block(std::size_t c0, std::size_t n) const {
    if (c0 > cols_ || n > cols_ - c0)
        throw ShapeError("cols_block: columns [" + std::to_string(c0) + ", " +
                         std::to_string(c0 + n) + ") are outside a " + shape() + " matrix");
    // No arithmetic on the null pointer of an empty matrix (UB; found by tests/fuzz/fuzz_multihead).
    return {data_ ? data_ + c0 : nullptr, rows_, n, stride_};
}

Matrix::Matrix(std::size_t rows, std::size_t cols, float fill) : rows_(rows), cols_(cols) {
    check_size(rows, cols, "Matrix");
    data_.assign(rows * cols, fill);
}

Matrix::Matrix(std::size_t rows, std::size_t cols, const std::vector<float>& values)
    : rows_(rows), cols_(cols) {
    check_size(rows, cols, "Matrix");
    if (values.size() != rows * cols)
        throw ShapeError("Matrix: " + std::to_string(values.size()) +
                         " values do not fill a " + shape_str(rows, cols) + " matrix (need " +
                         std::to_string(rows * cols) + ")");
    data_.assign(values.begin(), values.end());
}

Matrix::Matrix(std::initializer_list<std::initializer_list<float>> rows)
    : rows_(rows.size()), cols_(rows.size() ? rows.begin()->size() : 0) {
    data_.reserve(rows_ * cols_);
    std::size_t i = 0;
    for (const auto& r : rows) {
        if (r.size() != cols_)
            throw ShapeError("Matrix: row " + std::to_string(i) + " has " +
                             std::to_string(r.size()) + " values, row 0 has " +
                             std::to_string(cols_));
        data_.insert(data_.end(), r.begin(), r.end());
        ++i;
    }
}

Matrix::Matrix(ConstMatrixView v) : Matrix(v.rows(), v.cols()) {
    for (std::size_t i = 0; i < rows_; ++i) std::copy_n(v.row(i), cols_, row(i));
}

namespace f64 {

MatrixD::MatrixD(std::size_t rows, std::size_t cols, double fill) : rows_(rows), cols_(cols) {
    check_size(rows, cols, "MatrixD");
    data_.assign(rows * cols, fill);
}

MatrixD::MatrixD(std::size_t rows, std::size_t cols, const std::vector<double>& values) : MatrixD(rows, cols) {
    if (values.size() != rows * cols)
        throw ShapeError("MatrixD: " + std::to_string(values.size()) + " values for a " + shape_str(rows, cols) +
                         " matrix");
    data_ = values;
}

MatrixD::MatrixD(ConstMatrixView m) : MatrixD(m.rows(), m.cols()) {
    for (std::size_t i = 0; i < rows_; ++i)
        for (std::size_t j = 0; j < cols_; ++j) (*this)(i, j) = m(i, j);
}

Matrix MatrixD::to_float() const {
    Matrix out(rows_, cols_);
    for (std::size_t k = 0; k < data_.size(); ++k) out.data()[k] = float(data_[k]);
    return out;
}

}  // namespace f64

}  // namespace attn
