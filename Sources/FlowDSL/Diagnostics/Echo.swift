/// User text quoted back in a message (an unknown key, a bad value): shortened, so a 1 MiB name
/// does not fill the terminal, and with control and bidirectional-formatting characters written
/// as `\u{…}` escapes, so quoted text can neither reorder nor restyle the line it is printed on.
package enum Echo {
    /// The most characters of user text a message quotes; longer text ends in "…".
    package static let limit = 60

    /// `text` made safe to print inside a message: at most `limit` characters, then "…", with
    /// unprintable characters escaped.
    package static func text(_ text: some StringProtocol, limit: Int = Echo.limit) -> String {
        // Short printable ASCII (step ids, keys) is shown as it is: no Character walk.
        if text.utf8.count <= limit, text.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) { return String(text) }
        var shown = 0
        var result = ""
        for character in text {
            if shown == limit {
                result += "…"
                break
            }
            result += escaped(character)
            shown += 1
        }
        return result
    }

    /// `text` with unprintable characters escaped and nothing cut (for whole messages, whose
    /// own length flow controls).
    package static func escapingUnprintable(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isUnprintable) else { return text }
        return text.map(escaped).joined()
    }

    private static func escaped(_ character: Character) -> String {
        guard character.unicodeScalars.contains(where: isUnprintable) else { return String(character) }
        return character.unicodeScalars.map { scalar in
            isUnprintable(scalar) ? "\\u{\(String(scalar.value, radix: 16, uppercase: true))}" : String(scalar)
        }.joined()
    }

    /// C0 and C1 controls (tab included: it would misalign the message), DEL, and the Unicode
    /// bidirectional formatting characters (the "Trojan Source" set).
    package static func isUnprintable(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F: return true
        case 0x061C, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069: return true
        default: return false
        }
    }
}
