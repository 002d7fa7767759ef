/// Text from a file made safe to print on a terminal.
///
/// A trace or a scene file is data anyone can write: an item named `"\u{1B}]0;…\u{07}"` would,
/// printed raw in a message, retitle the terminal, move the cursor or worse. Every piece of text
/// that comes from a file and reaches a terminal goes through ``escaped(_:)`` first: the reader's
/// diagnostics (``TraceDiagnostic/message``), the programs' messages, and SVG titles.
package enum TerminalText {
    /// `text` with every character that could steer a terminal written out visibly: control
    /// characters (C0, DEL, C1) as `\n`, `\r`, `\t` or `\u{1B}`, line and paragraph separators
    /// and bidirectional overrides (which reorder what is shown) as `\u{202E}`. Everything else,
    /// including other non-ASCII text, is kept. Escaping twice changes nothing more.
    package static func escaped(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: needsEscape) else { return text }
        var out = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            guard needsEscape(scalar) else {
                out.append(scalar)
                continue
            }
            let visible: String
            switch scalar {
            case "\n": visible = "\\n"
            case "\r": visible = "\\r"
            case "\t": visible = "\\t"
            default: visible = "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            }
            out.append(contentsOf: visible.unicodeScalars)
        }
        return String(out)
    }

    /// Whether `scalar` must not reach a terminal as it is.
    static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00 ... 0x1F, 0x7F ... 0x9F: return true        // C0, DEL, C1
        case 0x2028, 0x2029: return true                      // line and paragraph separators
        case 0x061C, 0x200E, 0x200F, 0x202A ... 0x202E, 0x2066 ... 0x2069: return true   // bidi controls
        default: return false
        }
    }
}
