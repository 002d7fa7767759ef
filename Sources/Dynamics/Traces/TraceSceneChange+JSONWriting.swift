import Foundation

// Writing a scene file: each change as one line of JSON, written piece by piece so the line's
// keys come in a fixed order and every number in Swift's shortest round-trip form.

extension TraceSceneChange {
    /// The scene file's first line.
    static var headerLine: String {
        "{\"format\":\"\(TraceScene.sceneFormat)\",\"version\":\(TraceScene.sceneFormatVersion)}"
    }

    /// The change as one line of JSON, without its line ending. Numbers use Swift's shortest
    /// round-trip form, so a reader gets the identical `Double` back.
    var jsonLine: String {
        var j = JSONText()
        j.raw("{\"frame\":\(frame),")
        switch kind {
        case .referenceBounds(let rect):
            j.raw("\"referenceBounds\":")
            if let rect {
                j.raw("[")
                j.numbers([rect.origin.x, rect.origin.y, rect.size.width, rect.size.height])
                j.raw("]")
            } else {
                j.raw("null")
            }
        case .boundaries(let list):
            j.raw("\"boundaries\":[")
            for (k, boundary) in list.enumerated() {
                if k > 0 { j.raw(",") }
                j.raw("{\"points\":")
                j.points(boundary.points)
                if boundary.isClosed { j.raw(",\"closed\":true") }
                j.raw("}")
            }
            j.raw("]")
        case .item(let position, let item):
            j.raw("\"item\":\(position),\"key\":")
            j.string(item.key)
            j.raw(",\"parts\":[")
            for (k, part) in item.parts.enumerated() {
                if k > 0 { j.raw(",") }
                switch part.shape {
                case .rectangle(let size):
                    j.raw("{\"shape\":\"rectangle\",\"size\":[")
                    j.numbers([size.width, size.height])
                    j.raw("]")
                case .ellipse(let size):
                    j.raw("{\"shape\":\"ellipse\",\"size\":[")
                    j.numbers([size.width, size.height])
                    j.raw("]")
                case .path(let vertices):
                    j.raw("{\"shape\":\"path\",\"vertices\":")
                    j.points(vertices)
                }
                if part.center != .zero {
                    j.raw(",\"center\":")
                    j.point(part.center)
                }
                if part.angle != 0 {
                    j.raw(",\"angle\":")
                    j.number(part.angle)
                }
                j.raw("}")
            }
            j.raw("]")
        case .attachments(let list):
            j.raw("\"attachments\":[")
            for (k, attachment) in list.enumerated() {
                if k > 0 { j.raw(",") }
                j.raw("{")
                if let anchor = attachment.anchor {
                    j.raw("\"anchor\":")
                    j.point(anchor)
                    j.raw(",")
                }
                j.raw("\"items\":[")
                for (m, end) in attachment.items.enumerated() {
                    if m > 0 { j.raw(",") }
                    j.raw("{\"item\":\(end.item)")
                    if end.offset != .zero {
                        j.raw(",\"offset\":")
                        j.point(end.offset)
                    }
                    j.raw("}")
                }
                j.raw("]}")
            }
            j.raw("]")
        case .snapPoints(let points):
            j.raw("\"snapPoints\":")
            j.points(points)
        }
        j.raw("}")
        return j.text
    }
}

/// A JSON text built piece by piece.
private struct JSONText {
    var text = ""

    mutating func raw(_ s: String) { text += s }

    /// A number in Swift's shortest round-trip form; `null` when not finite (JSON has no NaN).
    mutating func number(_ value: CGFloat) {
        let v = Double(value)
        text += v.isFinite ? v.description : "null"
    }

    mutating func numbers(_ values: [CGFloat]) {
        for (k, v) in values.enumerated() {
            if k > 0 { text += "," }
            number(v)
        }
    }

    mutating func point(_ p: CGPoint) {
        text += "["
        number(p.x)
        text += ","
        number(p.y)
        text += "]"
    }

    mutating func points(_ list: [CGPoint]) {
        text += "["
        for (k, p) in list.enumerated() {
            if k > 0 { text += "," }
            point(p)
        }
        text += "]"
    }

    /// A JSON string: quotes, backslashes and control characters escaped.
    mutating func string(_ s: String) {
        text += "\""
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\"": text += "\\\""
            case "\\": text += "\\\\"
            case "\n": text += "\\n"
            case "\r": text += "\\r"
            case "\t": text += "\\t"
            default:
                if scalar.value < 0x20 {
                    text += String(format: "\\u%04x", scalar.value)
                } else {
                    text.unicodeScalars.append(scalar)
                }
            }
        }
        text += "\""
    }
}
