// Bindings of core/include/attn/memory.hpp: the core's memory counters and the module's
// own, and the cost chapter's live run (one kernel timed with the memory it needed).
#include <emscripten/emscripten.h>
#include <malloc.h>

#include "bind.hpp"

namespace {

using namespace attn::wasm;

// Current size of the module's memory.
double heap_bytes() { return double(emscripten_get_heap_size()); }
// Bytes currently allocated by malloc (dlmalloc's uordblks): flat when nothing leaks.
double malloc_bytes() { return double(mallinfo().uordblks); }
attn::MemoryStats reset_peak_memory() {
    attn::reset_peak_memory();
    return attn::memory_stats();
}

struct ProfileOptions {
    bool causal = false;
    std::size_t tile = 0;
};

void read_js(Record& o, ProfileOptions& p) {
    read_fields(o, "causal", p.causal, "tile", p.tile);
}

struct AttentionProfile {
    std::string kernel;
    double ms = 0;            // wall time of the kernel alone, no copies across the boundary
    double work_bytes = 0;    // core memory it needed on top of its inputs (its output included)
    double output_rows = 0, output_cols = 0;
};

// Runs one kernel on inputs already in wasm memory and measures it.
AttentionProfile profile_attention(attn::ConstMatrixView Q, attn::ConstMatrixView K, attn::ConstMatrixView V,
                                   const std::string& kernel, const ProfileOptions& o) {
    if (kernel != "plain" && kernel != "tiled")
        throw attn::ValueError("profileAttention: kernel must be 'plain' or 'tiled', got '" + kernel + "'");
    const std::size_t before = attn::memory_stats().current_bytes;
    attn::reset_peak_memory();
    const double t0 = emscripten_get_now();
    attn::Matrix out;
    if (kernel == "tiled") {
        attn::FlashOptions f;
        f.causal = o.causal;
        f.tile = o.tile;
        out = attn::flash_attention(Q, K, V, f);
    } else {
        attn::AttentionOptions a;
        a.causal = o.causal;
        out = attn::attention_output(Q, K, V, a);
    }
    return {kernel, emscripten_get_now() - t0, double(attn::memory_stats().peak_bytes - before), double(out.rows()),
            double(out.cols())};
}

}  // namespace

ATTN_BINDINGS(attn_memory) {
    using namespace attn::wasm;
    object<attn::MemoryStats>()
        .field("currentBytes", &attn::MemoryStats::current_bytes)
        .field("peakBytes", &attn::MemoryStats::peak_bytes);
    object<AttentionProfile>()
        .field("kernel", &AttentionProfile::kernel)
        .field("ms", &AttentionProfile::ms)
        .field("workBytes", &AttentionProfile::work_bytes)
        .field("outputRows", &AttentionProfile::output_rows)
        .field("outputCols", &AttentionProfile::output_cols);

    bind<&heap_bytes>("heapBytes");
    bind<&malloc_bytes>("mallocBytes");
    bind<&attn::memory_stats>("memoryStats");
    bind<&reset_peak_memory>("resetPeakMemory");
    bind<&profile_attention>("profileAttention");
    bind<&held_results>("heldResults");
}
