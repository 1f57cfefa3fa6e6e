// The text of a name in the syntax tree: its own copy, or a view of text that
// outlives the tree.
//
// Most names of a tree come from the code object being decompiled (co_names,
// co_varnames...), which lives until the tree has been printed. A copy of
// each name was a third of lifting a small function with long names (Dynamo's
// `l_self_modules_encoder_...`): an allocation, a copy and a free per name.
// `borrowed` takes such text without copying; any other text (made-up names,
// literals, rewritten names) is owned as before.
#pragma once

#include <compare>
#include <cstddef>
#include <functional>
#include <set>
#include <string>
#include <string_view>
#include <type_traits>

namespace unveil::ast {

class NameText {
 public:
  NameText() = default;
  NameText(std::string text) : own_(std::move(text)) {}  // NOLINT: a name is its text
  NameText(std::string_view text) : own_(text) {}        // NOLINT
  NameText(const char* text) : own_(text) {}             // NOLINT

  // A view of `text`, which must outlive every tree holding this name: the
  // code object's name tables or a static string.
  static NameText borrowed(std::string_view text) noexcept {
    NameText n;
    n.borrow(text);
    return n;
  }

  // This (empty) name made a view of `text`, as borrowed() does, in place.
  void borrow(std::string_view text) noexcept {
    view_data_ = text.data();
    view_size_ = text.size();
  }

  std::string_view view() const noexcept {
    // (A borrowed empty view with no data reads the empty own_: the same text.)
    return view_data_ ? std::string_view(view_data_, view_size_) : std::string_view(own_);
  }
  operator std::string_view() const noexcept { return view(); }  // NOLINT: reads as its text
  std::string str() const { return std::string(view()); }

  bool empty() const noexcept { return view().empty(); }
  std::size_t size() const noexcept { return view().size(); }
  char operator[](std::size_t i) const noexcept { return view()[i]; }
  bool starts_with(std::string_view prefix) const noexcept { return view().starts_with(prefix); }

  friend bool operator==(const NameText& a, const NameText& b) noexcept { return a.view() == b.view(); }
  // Against anything that reads as text (std::string, a literal, a view):
  // a template, so that it is preferred to converting the other side to a NameText.
  template <class S>
    requires(std::is_convertible_v<const S&, std::string_view> && !std::is_same_v<S, NameText>)
  friend bool operator==(const NameText& a, const S& b) noexcept {
    return a.view() == std::string_view(b);
  }
  // (Ordered like their text: NameSet looks names up by it.)
  friend auto operator<=>(const NameText& a, const NameText& b) noexcept { return a.view() <=> b.view(); }
  template <class S>
    requires(std::is_convertible_v<const S&, std::string_view> && !std::is_same_v<S, NameText>)
  friend auto operator<=>(const NameText& a, const S& b) noexcept {
    return a.view() <=> std::string_view(b);
  }
  friend std::string operator+(std::string_view a, const NameText& b) { return std::string(a).append(b.view()); }
  friend std::string operator+(const NameText& a, std::string_view b) { return a.str().append(b); }

 private:
  std::string own_;
  const char* view_data_ = nullptr;  // borrowed text, or null: own_ is the text
  std::size_t view_size_ = 0;
};

// Names looked up by a NameText (or any view) without making a std::string.
using NameSet = std::set<std::string, std::less<>>;

}  // namespace unveil::ast
