#include "lift/version_table.h"

#include <array>
#include <string>

#include "support/error.h"

namespace unveil::lift {

namespace {
constexpr std::array<VersionRow, 7> kRows{{
    {8, NullSlot::None, true, false, true, true, false, true, 3, 7, false, true, false, false, false, false, true},
    {9, NullSlot::None, true, false, true, true, false, true, 3, 7, false, true, false, false, false, false, false},
    {10, NullSlot::None, true, true, true, true, false, false, 3, 7, false, false, false, false, false, true, false},
    {11, NullSlot::Below, false, true, true, true, false, false, 1, 2, true, false, false, false, true, true, false},
    {12, NullSlot::Below, false, true, true, true, false, false, 1, 2, false, false, true, true, true, true, false},
    {13, NullSlot::Above, false, true, true, true, true, false, 1, 2, false, false, true, true, true, true, false},
    {14, NullSlot::Above, false, true, false, false, false, true, 1, 2, false, false, true, false, true, true, false},
}};
}  // namespace

const VersionRow& version_row(int minor) {
  for (const VersionRow& row : kRows)
    if (row.minor == minor) return row;
  throw Error(ErrorKind::Unsupported, "lifting: no version row for 3." + std::to_string(minor));
}

}  // namespace unveil::lift
