#pragma once

#include <string>

namespace YAML {
class Emitter;
}

// Strings in YAML that every reader takes back as the same string (Kubernetes reads manifests
// with a YAML 1.2 reader, older tools with YAML 1.1).
namespace headroom::store {

// True when `text` may be written plain (unquoted): no YAML 1.1 or 1.2 reader resolves it to
// anything but this string. Conservative by design: the text must start with an ASCII letter,
// hold only ASCII letters, digits and . _ / - : and single inner spaces, have no ": ", not end
// in ":", and not be a boolean or null word of either version in any case (y, n, yes, no, on,
// off, true, false, null). Everything else — numbers in any base or with "_", sexagesimal
// "12:30", dates, ".inf", "~", "", leading or trailing spaces, indicators such as - ? : # & *
// ! | > ' " % @ ` and any non-ASCII text — is quoted.
bool isPlainYamlSafe(const std::string &text);

// True when `text` holds a character a YAML document must not carry raw: C0 controls (tab,
// line feed included), DEL, C1 controls (U+0085 NEL among them), U+2028, U+2029, U+FEFF,
// U+FFFE, U+FFFF, or a byte that is not UTF-8.
bool needsYamlEscapes(const std::string &text);

// Writes `text` as a string scalar: plain when isPlainYamlSafe, else double-quoted; with
// needsYamlEscapes every non-ASCII character is written as a \x, \u or \U escape. Throws
// engine::InputError for bytes that are not UTF-8 (they could not be read back).
void emitYamlString(YAML::Emitter &out, const std::string &text);

} // namespace headroom::store
