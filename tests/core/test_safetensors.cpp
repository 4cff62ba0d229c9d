// Stage: the safetensors reader (safetensors.hpp): the header, every check it makes, every
// truncation point and flipped header byte of a tiny file (errors, never a crash: this stage
// also runs under ASan + UBSan in the native-debug preset), the dtype conversions, the shard
// index and the files that are not safetensors.
#include <cmath>
#include <set>

#include "helpers.hpp"
#include "pretrained_helpers.hpp"

using namespace attn;
using namespace attn::test;
using attn::safetensors::CheckpointError;

namespace {

std::vector<std::uint8_t> tiny_file() {
    return write_safetensors({f32_blob("a", {2, 3}, {1, 2, 3, 4, 5, 6}), f32_blob("b", {}, {7}),
                              {"c", "F16", {2}, {0x00, 0x3c, 0x00, 0xc0}}, {"d", "BF16", {1}, {0x80, 0x3f}}},
                             R"("__metadata__":{"format":"pt"})");
}

safetensors::Header parse(const std::vector<std::uint8_t>& f, const std::string& name = "x.safetensors") {
    safetensors::MemorySource src(f.data(), f.size());
    return safetensors::read_header(src, name);
}

std::string kind_of(const std::vector<std::uint8_t>& f) {
    try {
        parse(f);
    } catch (const CheckpointError& e) {
        return e.kind;
    }
    return "";
}

// A file whose header is `json` (padded) followed by `data` bytes.
std::vector<std::uint8_t> raw(const std::string& json, std::size_t data) {
    std::string h = json;
    while (h.size() % 8) h += ' ';
    std::vector<std::uint8_t> out(8);
    for (int i = 0; i < 8; ++i) out[i] = std::uint8_t(std::uint64_t(h.size()) >> (8 * i));
    out.insert(out.end(), h.begin(), h.end());
    out.resize(out.size() + data, 0);
    return out;
}

}  // namespace

TEST_CASE("a valid file: names, dtypes, shapes, absolute offsets, metadata", "[safetensors]") {
    const auto f = tiny_file();
    const auto h = parse(f);
    REQUIRE(h.tensors.size() == 4);
    CHECK(h.metadata.at("format") == "pt");
    const auto* a = h.find("a");
    REQUIRE(a);
    CHECK(a->shape == std::vector<std::uint64_t>{2, 3});
    CHECK(a->elements == 6);
    CHECK(a->begin == h.data_begin);
    CHECK(a->bytes() == 24);
    CHECK(a->shape_text() == "[2, 3]");
    CHECK(h.find("b")->elements == 1);  // a scalar
    CHECK(h.find("z") == nullptr);
    float v[6];
    safetensors::to_f32(a->dtype, f.data() + a->begin, 6, v);
    CHECK(v[5] == 6.0f);
    const auto* c = h.find("c");
    safetensors::to_f32(c->dtype, f.data() + c->begin, 2, v);
    CHECK(v[0] == 1.0f);
    CHECK(v[1] == -2.0f);
    const auto* d = h.find("d");
    safetensors::to_f32(d->dtype, f.data() + d->begin, 1, v);
    CHECK(v[0] == 1.0f);
}

TEST_CASE("every truncation point of a tiny file is an error, never a crash", "[safetensors]") {
    const auto f = tiny_file();
    std::set<std::string> kinds;
    for (std::size_t n = 0; n < f.size(); ++n) {
        INFO("truncated to " << n << " of " << f.size() << " bytes");
        std::vector<std::uint8_t> t(f.begin(), f.begin() + std::ptrdiff_t(n));
        const std::string k = kind_of(t);
        CHECK(!k.empty());
        kinds.insert(k);
    }
    // cut before the header's end: "truncated"; inside the data: a tensor passes the end, or the
    // last ones are missing ("layout")
    CHECK(kinds.count("truncated") == 1);
    CHECK(kinds.size() <= 3);
    CHECK(kind_of(f).empty());
}

TEST_CASE("flipped bytes in the length and the header: errors or a valid header, never a crash", "[safetensors]") {
    const auto f = tiny_file();
    const std::size_t N = std::size_t(safetensors::header_length(f.data(), 8, f.size(), "x"));
    std::size_t errors = 0, parsed = 0;
    for (std::size_t i = 0; i < 8 + N; ++i)
        for (std::uint8_t mask : {std::uint8_t(0x01), std::uint8_t(0x20), std::uint8_t(0x80), std::uint8_t(0xff)}) {
            auto g = f;
            g[i] ^= mask;
            try {
                const auto h = parse(g);
                ++parsed;
                // whatever parsed lies inside the file
                for (const auto& t : h.tensors) CHECK((t.begin >= h.data_begin && t.end <= g.size()));
            } catch (const CheckpointError&) {
                ++errors;
            }
        }
    CHECK(errors > 0);
    CHECK(parsed > 0);  // a flipped letter in a name or the metadata is still a valid file
}

TEST_CASE("each check of the header has its own error, naming the file and the tensor", "[safetensors]") {
    auto err = [](const std::vector<std::uint8_t>& f) {
        try {
            parse(f, "model.safetensors");
        } catch (const CheckpointError& e) {
            return e;
        }
        FAIL("no error");
        return CheckpointError("", "", "", "");
    };
    auto e = err(raw(R"({"w":{"dtype":"F32","shape":[2,2],"data_offsets":[0,12]}})", 12));
    CHECK(e.kind == "entry");
    CHECK(e.file == "model.safetensors");
    CHECK(e.tensor == "w");
    CHECK_THAT(e.what(), Catch::Contains("model.safetensors: tensor 'w': ") && Catch::Contains("needs 16"));
    CHECK(err(raw(R"({"w":{"dtype":"F33","shape":[1],"data_offsets":[0,4]}})", 4)).kind == "entry");
    CHECK(err(raw(R"({"w":{"dtype":"F32","shape":[-1],"data_offsets":[0,4]}})", 4)).kind == "entry");
    CHECK(err(raw(R"({"w":{"dtype":"F32","shape":[1.0],"data_offsets":[0,4]}})", 4)).kind == "entry");
    CHECK(err(raw(R"({"w":{"dtype":"F32","shape":[1],"data_offsets":[4,0]}})", 4)).kind == "entry");
    CHECK(err(raw(R"({"w":{"dtype":"F32","shape":[1],"data_offsets":[0]}})", 4)).kind == "entry");
    CHECK(err(raw(R"({"w":{"dtype":"F32","shape":[1]}})", 4)).kind == "entry");
    CHECK(err(raw(R"({"w":[1,2]})", 4)).kind == "entry");
    // sizes that overflow 64 bits
    e = err(raw(R"({"w":{"dtype":"F32","shape":[4294967296,4294967296,2],"data_offsets":[0,4]}})", 4));
    CHECK_THAT(e.what(), Catch::Contains("2^64"));
    e = err(raw(R"({"w":{"dtype":"F64","shape":[4294967296,4294967295],"data_offsets":[0,4]}})", 4));
    CHECK_THAT(e.what(), Catch::Contains("2^64"));
    // a zero dimension: no bytes, whatever else the shape says
    CHECK(kind_of(raw(R"({"w":{"dtype":"F32","shape":[0,18446744073709551615],"data_offsets":[0,0]}})", 0)).empty());
    // offsets past the data
    CHECK(err(raw(R"({"w":{"dtype":"F32","shape":[2],"data_offsets":[0,8]}})", 4)).kind == "truncated");
    CHECK(err(raw(R"({"w":{"dtype":"U8","shape":[1],"data_offsets":[18446744073709551614,18446744073709551615]}})", 4)).kind == "truncated");
    // overlap, gap, bytes after the last tensor
    e = err(raw(R"({"a":{"dtype":"F32","shape":[2],"data_offsets":[0,8]},"b":{"dtype":"F32","shape":[1],"data_offsets":[4,8]}})", 8));
    CHECK(e.kind == "layout");
    CHECK_THAT(e.what(), Catch::Contains("overlap"));
    e = err(raw(R"({"a":{"dtype":"F32","shape":[1],"data_offsets":[0,4]},"b":{"dtype":"F32","shape":[1],"data_offsets":[8,12]}})", 12));
    CHECK(e.kind == "layout");
    CHECK(e.tensor == "b");
    CHECK(err(raw(R"({"a":{"dtype":"F32","shape":[1],"data_offsets":[0,4]}})", 8)).kind == "layout");
    // the same name twice (nlohmann would keep one silently)
    e = err(raw(R"({"a":{"dtype":"F32","shape":[1],"data_offsets":[0,4]},"a":{"dtype":"F32","shape":[1],"data_offsets":[4,8]}})", 8));
    CHECK(e.kind == "header");
    CHECK_THAT(e.what(), Catch::Contains("twice"));
    CHECK(err(raw(R"({"a":{"dtype":"F32","dtype":"F16","shape":[1],"data_offsets":[0,4]}})", 4)).kind == "header");
    // metadata of strings only; JSON; an object; '{' first
    CHECK(err(raw(R"({"__metadata__":{"n":1}})", 0)).kind == "header");
    CHECK(err(raw(R"({"a":)", 0)).kind == "header");
    CHECK(err(raw(R"([1,2])", 0)).kind == "header");
    CHECK(err(raw(R"(  {})", 0)).kind == "header");
    CHECK(err(raw("{\"\xff\":1}", 0)).kind == "header");  // not UTF-8
    CHECK(kind_of(raw("{}", 0)).empty());                  // an empty checkpoint is a valid file
    // the length: 0, over 100 MB, past the end, fewer than 8 bytes
    std::vector<std::uint8_t> z(16, ' ');
    std::fill(z.begin(), z.begin() + 8, 0);
    CHECK(err(z).kind == "header");
    auto big = z;
    big[4] = 1;  // 2^32
    CHECK(err(big).kind == "header");
    auto past = z;
    past[0] = 100;
    CHECK(err(past).kind == "truncated");
    CHECK(err({1, 2, 3}).kind == "truncated");
    CHECK(err({}).kind == "truncated");
}

TEST_CASE("PyTorch pickles and other formats are refused, saying how to get safetensors", "[safetensors]") {
    // torch.save's zip and a raw pickle (protocol 2), renamed or not
    std::vector<std::uint8_t> zip = {'P', 'K', 3, 4, 0, 0, 0, 0, 0, 0, 0, 0};
    std::vector<std::uint8_t> pkl = {0x80, 0x02, '}', 'q', 0, 0, 0, 0, 0, 0};
    for (const auto& f : {zip, pkl}) {
        try {
            parse(f, "model.safetensors");
            FAIL("no error");
        } catch (const CheckpointError& e) {
            CHECK(e.kind == "pickle");
            CHECK_THAT(e.what(), Catch::Contains("pickle") && Catch::Contains("model.safetensors") &&
                                     Catch::Contains("save_pretrained"));
        }
    }
    for (const char* name : {"pytorch_model.bin", "folder/pytorch_model-00001-of-00002.bin", "model.pt", "x.ckpt"}) {
        try {
            safetensors::check_weights_file_name(name);
            FAIL(name);
        } catch (const CheckpointError& e) {
            CHECK(e.kind == "pickle");
        }
    }
    for (const char* name : {"tf_model.h5", "flax_model.msgpack", "model.gguf", "model.onnx"}) {
        try {
            safetensors::check_weights_file_name(name);
            FAIL(name);
        } catch (const CheckpointError& e) {
            CHECK(e.kind == "format");
        }
    }
    CHECK_NOTHROW(safetensors::check_weights_file_name("model.safetensors"));
    CHECK_NOTHROW(safetensors::check_weights_file_name("model-00001-of-00002.safetensors"));
}

TEST_CASE("binary16 and bfloat16 widen exactly: every one of the 65536 values", "[safetensors]") {
    for (std::uint32_t h = 0; h < 65536; ++h) {
        const float a = safetensors::f16_to_f32(std::uint16_t(h)), b = from_half(std::uint16_t(h));
        if (std::isnan(b)) {
            CHECK(std::isnan(a));
            continue;
        }
        REQUIRE(a == b);
        REQUIRE(std::signbit(a) == std::signbit(b));
        // bfloat16 is float's top half
        std::uint32_t bits = h << 16;
        float want;
        std::memcpy(&want, &bits, 4);
        const float got = safetensors::bf16_to_f32(std::uint16_t(h));
        REQUIRE(std::memcmp(&got, &want, 4) == 0);
    }
    CHECK(safetensors::f16_to_f32(0x0001) == std::ldexp(1.0f, -24));  // the smallest subnormal
    CHECK(safetensors::f16_to_f32(0x7bff) == 65504.0f);
    float x;
    CHECK_THROWS_AS(safetensors::to_f32(safetensors::DType::I64, nullptr, 0, &x), ValueError);
}

TEST_CASE("the shard index: weight_map of plain file names", "[safetensors]") {
    const auto i = safetensors::parse_index(R"({"metadata":{"total_size":8},"weight_map":{"a":"m-1.safetensors","b":"m-2.safetensors","c":"m-1.safetensors"}})");
    CHECK(i.files == std::vector<std::string>{"m-1.safetensors", "m-2.safetensors"});
    CHECK(i.weight_map.at("b") == "m-2.safetensors");
    for (const char* bad : {"", "[]", R"({"weight_map":[]})", R"({"weight_map":{}})", R"({"weight_map":{"a":1}})",
                            R"({"weight_map":{"a":"../m.safetensors"}})", R"({"weight_map":{"a":"/etc/passwd"}})"}) {
        INFO(bad);
        try {
            safetensors::parse_index(bad);
            FAIL("no error");
        } catch (const CheckpointError& e) {
            CHECK(e.kind == "index");
        }
    }
}
