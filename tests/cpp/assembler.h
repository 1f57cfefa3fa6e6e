// A tiny assembler for hand-made code objects in tests (any version 3.8-3.14):
// EXTENDED_ARG prefixes, inline caches and 3.11+ exception-table entries are
// emitted as the decoder expects, jump arguments from labels. For bad input,
// op() takes any raw argument, jumps included.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "decode/decode.h"
#include "opcodes/version.h"
#include "read/code_object.h"
#include "versions.h"

namespace unveil::testing {

class Assembler {
 public:
  explicit Assembler(int minor) : v_(*find_version(minor)) {}

  int label() {
    labels_.push_back(-1);
    return static_cast<int>(labels_.size()) - 1;
  }
  void bind(int l) { labels_[l] = static_cast<int>(ops_.size()); }
  void op(const std::string& name, std::uint32_t arg = 0) { ops_.push_back({opcode(name), arg, -1}); }
  void jump(const std::string& name, int l) { ops_.push_back({opcode(name), 0, l}); }
  void handler(int start, int end, int target, std::uint32_t depth, bool lasti = false) {
    entries_.push_back({start, end, target, depth, lasti});
  }

  std::shared_ptr<CodeObject> code() {
    std::vector<std::uint32_t> start(ops_.size() + 1), ext(ops_.size(), 0);
    std::string bytes;
    for (int round = 0; round < 8; ++round) {  // prefixes change sizes: iterate
      std::uint32_t at = 0;
      for (std::size_t i = 0; i < ops_.size(); ++i) {
        start[i] = at;
        at += 2 * (ext[i] + 1 + v_.op(ops_[i].opcode).caches);
      }
      start[ops_.size()] = at;
      bool stable = true;
      for (std::size_t i = 0; i < ops_.size(); ++i) {
        const std::uint32_t arg = argument(i, start);
        const std::uint32_t need = arg > 0xffffff ? 3 : arg > 0xffff ? 2 : arg > 0xff ? 1 : 0;
        if (need != ext[i]) stable = false;
        ext[i] = std::max(ext[i], need);
      }
      if (stable) break;
    }
    for (std::size_t i = 0; i < ops_.size(); ++i) {
      const std::uint32_t arg = argument(i, start);
      for (std::uint32_t k = ext[i]; k > 0; --k) {
        bytes += static_cast<char>(v_.extended_arg);
        bytes += static_cast<char>((arg >> (8 * k)) & 0xff);
      }
      bytes += static_cast<char>(ops_[i].opcode);
      bytes += static_cast<char>(arg & 0xff);
      bytes.append(2 * v_.op(ops_[i].opcode).caches, '\0');
    }
    auto code = std::make_shared<CodeObject>();
    code->version_minor = v_.minor;
    code->code = bytes;
    code->consts = {make_object(NoneValue{})};
    code->varnames = code->localsplusnames = {"x"};
    code->localspluskinds = {kLocalPlain};
    code->nlocals = 1;
    code->stacksize = 8;
    code->name = code->qualname = "synthetic";
    code->firstlineno = 1;
    for (const Entry& e : entries_) {
      const std::uint32_t s = start[labels_[e.start]] / 2;
      const std::uint32_t len = start[labels_[e.end]] / 2 - s;
      const std::uint32_t t = start[labels_[e.target]] / 2;
      append_varint(code->exceptiontable, s, true);
      append_varint(code->exceptiontable, len, false);
      append_varint(code->exceptiontable, t, false);
      append_varint(code->exceptiontable, (e.depth << 1) | (e.lasti ? 1 : 0), false);
    }
    return code;
  }

  DecodedCode decoded() { return decode(code(), v_); }

 private:
  struct Op {
    std::uint8_t opcode;
    std::uint32_t arg;
    int label;
  };
  struct Entry {
    int start, end, target;
    std::uint32_t depth;
    bool lasti;
  };

  std::uint8_t opcode(const std::string& name) const {
    if (auto op = testing::find_opcode(v_, name)) return *op;
    ADD_FAILURE() << name << " is not an opcode of 3." << v_.minor;
    return 0;
  }

  std::uint32_t argument(std::size_t i, const std::vector<std::uint32_t>& start) const {
    const Op& o = ops_[i];
    if (o.label < 0) return o.arg;
    const std::uint32_t target = start[labels_[o.label]];
    const std::uint32_t end = start[i + 1];
    const auto unit = static_cast<std::uint32_t>(v_.jump_unit);
    switch (v_.op(o.opcode).jump) {
      case JumpKind::Forward: return target >= end ? (target - end) / unit : 0;
      case JumpKind::Backward: return end >= target ? (end - target) / unit : 0;
      case JumpKind::Absolute: return target / unit;
      case JumpKind::None: break;
    }
    return o.arg;
  }

  // 6-bit groups, most significant first; 0x40 = more follow; 0x80 marks an entry's start.
  static void append_varint(std::string& out, std::uint32_t value, bool first) {
    int shift = 0;
    while ((value >> shift) >= 64) shift += 6;
    for (; shift >= 0; shift -= 6) {
      std::uint8_t byte = (value >> shift) & 0x3f;
      if (shift > 0) byte |= 0x40;
      if (first) byte |= 0x80;
      first = false;
      out += static_cast<char>(byte);
    }
  }

  const VersionTraits& v_;
  std::vector<Op> ops_;
  std::vector<int> labels_;
  std::vector<Entry> entries_;
};

}  // namespace unveil::testing
