// Shared by test_safetensors.cpp and test_pretrained.cpp: files of tests/core/data/pretrained/
// (written by tools/pretrained/reference.py), a safetensors writer for the tests' own files,
// and loading a checkpoint folder from memory.
#pragma once

#include <cstdint>
#include <cstring>
#include <fstream>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "attn/checkpoint.hpp"
#include "attn/pretrained.hpp"
#include "attn/safetensors.hpp"

namespace attn::test {

#ifndef ATTN_SOURCE_DIR
#error "ATTN_SOURCE_DIR must be defined (tests/CMakeLists.txt)"
#endif

inline std::string pretrained_dir() { return std::string(ATTN_SOURCE_DIR) + "/tests/core/data/pretrained"; }

inline std::vector<std::uint8_t> read_bytes(const std::string& path) {
    std::ifstream f(path, std::ios::binary);
    if (!f) throw std::runtime_error("cannot open " + path);
    return {std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>()};
}
inline std::string read_text(const std::string& path) {
    const auto b = read_bytes(path);
    return {b.begin(), b.end()};
}

struct Blob {
    std::string name, dtype;
    std::vector<std::uint64_t> shape;
    std::vector<std::uint8_t> bytes;
};

// A safetensors file of the blobs, in order, header padded with spaces to a multiple of 8.
inline std::vector<std::uint8_t> write_safetensors(const std::vector<Blob>& blobs, const std::string& extra_json = "") {
    nlohmann::ordered_json h = nlohmann::ordered_json::object();
    std::uint64_t at = 0;
    for (const auto& b : blobs) {
        h[b.name] = {{"dtype", b.dtype}, {"shape", b.shape}, {"data_offsets", {at, at + b.bytes.size()}}};
        at += b.bytes.size();
    }
    std::string text = h.dump();
    if (!extra_json.empty()) text = text.substr(0, text.size() - 1) + (blobs.empty() ? "" : ",") + extra_json + "}";
    while (text.size() % 8) text += ' ';
    std::vector<std::uint8_t> out(8);
    const std::uint64_t n = text.size();
    for (int i = 0; i < 8; ++i) out[i] = std::uint8_t(n >> (8 * i));
    out.insert(out.end(), text.begin(), text.end());
    for (const auto& b : blobs) out.insert(out.end(), b.bytes.begin(), b.bytes.end());
    return out;
}

// Every tensor of a safetensors file, as blobs (header order).
inline std::vector<Blob> read_blobs(const std::vector<std::uint8_t>& file, const std::string& name = "model.safetensors") {
    safetensors::MemorySource src(file.data(), file.size());
    const auto h = safetensors::read_header(src, name);
    std::vector<Blob> out;
    for (const auto& t : h.tensors)
        out.push_back({t.name, safetensors::dtype_name(t.dtype), t.shape,
                       std::vector<std::uint8_t>(file.begin() + std::ptrdiff_t(t.begin), file.begin() + std::ptrdiff_t(t.end))});
    return out;
}

inline Blob f32_blob(const std::string& name, std::vector<std::uint64_t> shape, const std::vector<float>& v) {
    Blob b{name, "F32", std::move(shape), std::vector<std::uint8_t>(v.size() * 4)};
    if (!v.empty()) std::memcpy(b.bytes.data(), v.data(), b.bytes.size());
    return b;
}

// A folder of files in memory: name -> bytes.
using Folder = std::map<std::string, std::vector<std::uint8_t>>;

inline Folder read_case(const std::string& name) {
    Folder f;
    const std::string d = pretrained_dir() + "/" + name + "/";
    for (const char* n : {"config.json", "model.safetensors", "expected.safetensors"}) f[n] = read_bytes(d + n);
    return f;
}

// Loads the folder's config.json and the given weight files (index: the index file's name, or "").
inline pretrained::Model load_folder(const Folder& folder, std::vector<std::string> files = {"model.safetensors"},
                                     const std::string& index = "") {
    const auto& cj = folder.at("config.json");
    const pretrained::Config config = pretrained::parse_config(std::string(cj.begin(), cj.end()));
    std::vector<std::unique_ptr<safetensors::MemorySource>> sources;
    const std::string index_json = index.empty() ? std::string() : std::string(folder.at(index).begin(), folder.at(index).end());
    return pretrained::load_checkpoint(
        config, files,
        [&](const std::string& n) -> safetensors::ByteSource* {
            const auto it = folder.find(n);
            if (it == folder.end()) return nullptr;
            sources.push_back(std::make_unique<safetensors::MemorySource>(it->second.data(), it->second.size()));
            return sources.back().get();
        },
        index_json);
}

// An expected tensor of expected.safetensors as floats.
inline std::vector<float> expected_tensor(const Folder& folder, const std::string& name, std::vector<std::uint64_t>* shape = nullptr) {
    const auto& file = folder.at("expected.safetensors");
    safetensors::MemorySource src(file.data(), file.size());
    const auto h = safetensors::read_header(src, "expected.safetensors");
    const auto* t = h.find(name);
    if (!t) return {};
    std::vector<float> v(std::size_t(t->elements));
    safetensors::to_f32(t->dtype, file.data() + t->begin, v.size(), v.data());
    if (shape) *shape = t->shape;
    return v;
}

// max |got − want| / max |want|: the normwise relative error the reference comparison states.
inline double relative_error(const float* got, const float* want, std::size_t n) {
    double err = 0, scale = 0;
    for (std::size_t i = 0; i < n; ++i) {
        err = std::max(err, std::fabs(double(got[i]) - double(want[i])));
        scale = std::max(scale, std::fabs(double(want[i])));
    }
    return scale > 0 ? err / scale : err;
}

}  // namespace attn::test
