#include "cfg/graph.h"

#include <algorithm>

namespace unveil::cfg {

std::string_view edge_kind_name(EdgeKind kind) noexcept {
  switch (kind) {
    case EdgeKind::FallThrough: return "fallthrough";
    case EdgeKind::Jump: return "jump";
    case EdgeKind::Branch: return "branch";
    case EdgeKind::Exception: return "exception";
    case EdgeKind::Call: return "call";
  }
  return "?";
}

std::optional<BlockId> Graph::block_at(std::uint32_t offset) const {
  auto it = std::lower_bound(blocks_.begin(), blocks_.end(), offset,
                             [](const Block& b, std::uint32_t v) { return b.begin < v; });
  if (it == blocks_.end() || it->begin != offset) return std::nullopt;
  return it->id;
}

std::optional<BlockId> Graph::block_containing(std::uint32_t offset) const {
  // The last block starting at or before `offset`.
  auto it = std::upper_bound(blocks_.begin(), blocks_.end(), offset,
                             [](std::uint32_t v, const Block& b) { return v < b.begin; });
  if (it == blocks_.begin()) return std::nullopt;
  --it;
  if (offset >= it->end) return std::nullopt;
  return it->id;
}

}  // namespace unveil::cfg
