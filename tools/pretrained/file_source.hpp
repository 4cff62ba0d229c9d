// A safetensors::ByteSource over a file on disk, for the native tools (the core itself does no
// I/O; in the browser a worker reads File slices instead).
#pragma once

#include <cstdio>
#include <string>

#include "attn/safetensors.hpp"

namespace attn::tools {

class FileSource : public safetensors::ByteSource {
public:
    explicit FileSource(const std::string& path) : path_(path) {
        f_ = std::fopen(path.c_str(), "rb");
        if (!f_) throw safetensors::CheckpointError("missing", path, "", "cannot open the file");
        std::fseek(f_, 0, SEEK_END);
        size_ = std::uint64_t(ftello(f_));
    }
    ~FileSource() override {
        if (f_) std::fclose(f_);
    }
    FileSource(const FileSource&) = delete;
    FileSource& operator=(const FileSource&) = delete;
    std::uint64_t size() const override { return size_; }
    void read(std::uint64_t offset, std::uint8_t* dst, std::size_t n) override {
        if (fseeko(f_, off_t(offset), SEEK_SET) != 0 || std::fread(dst, 1, n, f_) != n)
            throw safetensors::CheckpointError("truncated", path_, "",
                                               "cannot read " + std::to_string(n) + " bytes at " + std::to_string(offset));
    }

private:
    std::string path_;
    std::FILE* f_ = nullptr;
    std::uint64_t size_ = 0;
};

}  // namespace attn::tools
