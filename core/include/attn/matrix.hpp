// attn::Matrix: an owning, row-major matrix of float with SIMD-aligned storage, the
// non-owning views every stage of the core takes as input, and attn::f64::MatrixD, the
// same in double for the double path (the gradient checks, forward.hpp, grad.hpp).
//
// Shapes are (rows x cols). Element (i, j) lives at data()[i * stride + j]; for an
// owning Matrix the stride equals cols. Views may have a larger stride (a block of
// columns, such as one head's slice of Q), but their rows are always contiguous.
//
// Limits: every allocation is checked against kMaxElements before memory is touched
// (SizeError, also when rows * cols overflows size_t); a view whose rows would overlap
// throws ShapeError. Element access (operator(), row()) is unchecked, as in the
// standard containers; every public function of the core checks shapes first.
#pragma once

#include <cstddef>
#include <initializer_list>
#include <string>
#include <vector>

#include <xsimd/xsimd.hpp>

#include "attn/errors.hpp"
#include "attn/memory.hpp"

namespace attn {

// The largest matrix the core will allocate: 2^28 floats (1 GiB). Larger requests
// throw attn::SizeError before any memory is touched.
inline constexpr std::size_t kMaxElements = std::size_t{1} << 28;

// Storage alignment in bytes: a cache line, enough for every SIMD width up to AVX-512.
inline constexpr std::size_t kAlignment = 64;

// Throws SizeError when rows * cols overflows or exceeds kMaxElements, or when either
// side alone does (so no loop over the rows of an empty matrix can run for ever).
void check_size(std::size_t rows, std::size_t cols, const char* what);

// Checks a view's arguments: ShapeError when rows overlap (stride < cols with more than
// one row), ValueError for a null pointer to a non-empty view, SizeError for a side
// longer than kMaxElements.
[[noreturn]] void throw_bad_view(const void* data, std::size_t rows, std::size_t cols, std::size_t stride);
inline void check_view(const void* data, std::size_t rows, std::size_t cols, std::size_t stride) {
    if ((rows > 1 && stride < cols) || (data == nullptr && rows != 0 && cols != 0) || rows > kMaxElements ||
        cols > kMaxElements)
        throw_bad_view(data, rows, cols, stride);
}

class ConstMatrixView {
public:
    ConstMatrixView() = default;
    ConstMatrixView(const float* data, std::size_t rows, std::size_t cols, std::size_t stride)
        : data_(data), rows_(rows), cols_(cols), stride_(stride) {
        check_view(data, rows, cols, stride);
    }

    std::size_t rows() const { return rows_; }
    std::size_t cols() const { return cols_; }
    std::size_t stride() const { return stride_; }
    bool empty() const { return rows_ == 0 || cols_ == 0; }
    const float* data() const { return data_; }
    const float* row(std::size_t i) const { return data_ + i * stride_; }
    float operator()(std::size_t i, std::size_t j) const { return data_[i * stride_ + j]; }
    std::string shape() const { return shape_str(rows_, cols_); }

    // Columns [c0, c0 + n) of every row. Throws ShapeError when out of range.
    ConstMatrixView cols_block(std::size_t c0, std::size_t n) const;

private:
    const float* data_ = nullptr;
    std::size_t rows_ = 0, cols_ = 0, stride_ = 0;
};

class MatrixView {
public:
    MatrixView() = default;
    MatrixView(float* data, std::size_t rows, std::size_t cols, std::size_t stride)
        : data_(data), rows_(rows), cols_(cols), stride_(stride) {
        check_view(data, rows, cols, stride);
    }

    std::size_t rows() const { return rows_; }
    std::size_t cols() const { return cols_; }
    std::size_t stride() const { return stride_; }
    float* data() const { return data_; }
    float* row(std::size_t i) const { return data_ + i * stride_; }
    float& operator()(std::size_t i, std::size_t j) const { return data_[i * stride_ + j]; }
    operator ConstMatrixView() const { return {data_, rows_, cols_, stride_}; }

private:
    float* data_ = nullptr;
    std::size_t rows_ = 0, cols_ = 0, stride_ = 0;
};

class Matrix {
public:
    // Aligned like xsimd::aligned_allocator, and counted by attn::memory_stats().
    using Storage = std::vector<float, tracked_allocator<float, kAlignment>>;

    Matrix() = default;
    // rows x cols filled with `fill`. Throws SizeError past kMaxElements.
    Matrix(std::size_t rows, std::size_t cols, float fill = 0.0f);
    // rows x cols from row-major `values`; throws ShapeError unless values.size() == rows*cols.
    Matrix(std::size_t rows, std::size_t cols, const std::vector<float>& values);
    // Row by row: Matrix{{1, 2}, {3, 4}}. Throws ShapeError on ragged rows.
    Matrix(std::initializer_list<std::initializer_list<float>> rows);
    // A copy of any view (compacts the stride).
    explicit Matrix(ConstMatrixView v);

    std::size_t rows() const { return rows_; }
    std::size_t cols() const { return cols_; }
    std::size_t size() const { return data_.size(); }
    bool empty() const { return data_.empty(); }
    float* data() { return data_.data(); }
    const float* data() const { return data_.data(); }
    float* row(std::size_t i) { return data_.data() + i * cols_; }
    const float* row(std::size_t i) const { return data_.data() + i * cols_; }
    float& operator()(std::size_t i, std::size_t j) { return data_[i * cols_ + j]; }
    float operator()(std::size_t i, std::size_t j) const { return data_[i * cols_ + j]; }
    std::string shape() const { return shape_str(rows_, cols_); }

    MatrixView view() { return {data_.data(), rows_, cols_, cols_}; }
    ConstMatrixView view() const { return {data_.data(), rows_, cols_, cols_}; }
    operator ConstMatrixView() const { return view(); }
    ConstMatrixView cols_block(std::size_t c0, std::size_t n) const { return view().cols_block(c0, n); }

    std::vector<float> to_vector() const { return {data_.begin(), data_.end()}; }

private:
    std::size_t rows_ = 0, cols_ = 0;
    Storage data_;
};

// The double path's matrix (forward.hpp's f64::attention, grad.hpp's f64 stages, the
// training model in double): row-major double, plain std::vector storage (not counted by
// memory_stats), the same shape rules and SizeError limit as Matrix.
namespace f64 {

class MatrixD {
public:
    MatrixD() = default;
    // rows x cols filled with `fill`. SizeError past kMaxElements.
    MatrixD(std::size_t rows, std::size_t cols, double fill = 0.0);
    // rows x cols from row-major `values`; ShapeError unless values.size() == rows*cols.
    MatrixD(std::size_t rows, std::size_t cols, const std::vector<double>& values);
    // A float matrix (or view) widened to double, entry by entry.
    explicit MatrixD(ConstMatrixView m);

    std::size_t rows() const { return rows_; }
    std::size_t cols() const { return cols_; }
    std::size_t size() const { return data_.size(); }
    bool empty() const { return data_.empty(); }
    double* data() { return data_.data(); }
    const double* data() const { return data_.data(); }
    double* row(std::size_t i) { return data_.data() + i * cols_; }
    const double* row(std::size_t i) const { return data_.data() + i * cols_; }
    double& operator()(std::size_t i, std::size_t j) { return data_[i * cols_ + j]; }
    double operator()(std::size_t i, std::size_t j) const { return data_[i * cols_ + j]; }
    std::string shape() const { return shape_str(rows_, cols_); }
    // Rounded to float, entry by entry.
    Matrix to_float() const;

private:
    std::size_t rows_ = 0, cols_ = 0;
    std::vector<double> data_;
};

}  // namespace f64
}  // namespace attn
