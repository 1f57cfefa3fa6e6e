// A set of names seen as views into strings that outlive it (a code object's
// name tables): the names a temporary must not take.
//
// Dynamo's transformed code has thousands of names, and a temporary needs
// all of them to hand: a std::set of copies took a node, a string copy and a
// dozen string comparisons per name, a quarter of the time of such code. An
// open-addressing table of views takes one hash per name and no allocation
// beyond its slots.
#pragma once

#include <cstddef>
#include <functional>
#include <string_view>
#include <vector>

namespace unveil::lift {

class NameViews {
 public:
  void insert(std::string_view name) {
    if ((used_ + 1) * 2 > slots_.size()) grow();
    std::string_view& slot = slots_[find(name)];
    if (slot.data() == nullptr) {
      slot = name.data() ? name : std::string_view("", 0);  // (a default view reads as free)
      ++used_;
    }
  }
  bool contains(std::string_view name) const {
    return !slots_.empty() && slots_[find(name)].data() != nullptr;
  }
  std::size_t size() const { return used_; }

 private:
  // The index of the slot that holds `name`, or of the free slot where it would go.
  std::size_t find(std::string_view name) const {
    const std::size_t mask = slots_.size() - 1;
    for (std::size_t i = std::hash<std::string_view>{}(name) & mask;; i = (i + 1) & mask)
      if (slots_[i].data() == nullptr || slots_[i] == name) return i;
  }
  void grow() {
    std::vector<std::string_view> old = std::move(slots_);
    slots_.assign(old.empty() ? 16 : old.size() * 2, std::string_view{});
    for (std::string_view n : old)
      if (n.data() != nullptr) slots_[find(n)] = n;
  }
  std::vector<std::string_view> slots_;  // size a power of two, at most half full
  std::size_t used_ = 0;
};

}  // namespace unveil::lift
