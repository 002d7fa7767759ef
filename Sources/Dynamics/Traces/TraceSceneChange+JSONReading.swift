import Foundation

// Reading a scene file: each line decoded (Codable) into a shape and then checked into a change,
// with a message a person can act on when it is not one.

extension TraceSceneChange {
    /// What one line of a scene file holds.
    enum ParsedLine: Equatable {
        /// The first line: the format name and version.
        case header(format: String, version: Int)
        case change(TraceSceneChange)
    }

    /// A scene file line that cannot be used, with the reason.
    struct LineError: Error, Equatable {
        var message: String
    }

    /// Parses one line of a scene file (without its line ending).
    static func parse(_ line: Substring) throws(LineError) -> ParsedLine {
        let dto: LineDTO
        do {
            dto = try JSONDecoder().decode(LineDTO.self, from: Data(line.utf8))
        } catch let error as DecodingError {
            throw LineError(message: describe(error))
        } catch {
            throw LineError(message: "not valid JSON")
        }
        if let format = dto.format {
            return .header(format: format, version: dto.version ?? 1)
        }
        guard let frame = dto.frame else { throw LineError(message: "no frame number") }
        guard frame >= 0 else { throw LineError(message: "frame \(frame) is negative") }
        let kinds = dto.kinds
        guard kinds.count == 1, let kind = kinds.first else {
            throw LineError(message: kinds.isEmpty
                ? "says nothing (expected one of referenceBounds, boundaries, item, attachments, snapPoints)"
                : "holds \(kinds.joined(separator: " and ")); one a line")
        }
        switch kind {
        case "referenceBounds":
            guard let n = dto.referenceBounds else {
                return .change(TraceSceneChange(frame: frame, kind: .referenceBounds(nil)))
            }
            guard n.count == 4 else { throw LineError(message: "referenceBounds needs [x, y, width, height]") }
            try finite(n, "referenceBounds")
            guard n[2] > 0, n[3] > 0 else { throw LineError(message: "referenceBounds has no area") }
            return .change(TraceSceneChange(frame: frame, kind: .referenceBounds(CGRect(x: n[0], y: n[1], width: n[2], height: n[3]))))
        case "boundaries":
            var boundaries: [TraceScene.Boundary] = []
            for (k, b) in (dto.boundaries ?? []).enumerated() {
                let points = try pointList(b.points, "boundaries[\(k)].points")
                guard points.count >= 2 else { throw LineError(message: "boundaries[\(k)] needs two points or more") }
                boundaries.append(TraceScene.Boundary(points: points, isClosed: b.closed ?? false))
            }
            return .change(TraceSceneChange(frame: frame, kind: .boundaries(boundaries)))
        case "item":
            guard let position = dto.item, position >= 0, position < maximumItemPosition else {
                throw LineError(message: "item needs a position from 0 to \(maximumItemPosition - 1)")
            }
            guard let key = dto.key else { throw LineError(message: "item \(position) has no key") }
            guard let list = dto.parts else { throw LineError(message: "item \(position) has no parts") }
            var parts: [TraceScene.Part] = []
            for (k, p) in list.enumerated() { parts.append(try part(p, "parts[\(k)]")) }
            return .change(TraceSceneChange(frame: frame, kind: .item(position: position, TraceScene.Item(key: key, parts: parts))))
        case "attachments":
            var attachments: [TraceScene.Attachment] = []
            for (k, a) in (dto.attachments ?? []).enumerated() {
                let anchor = try a.anchor.map { p throws(LineError) in try point(p, "attachments[\(k)].anchor") }
                var ends: [TraceScene.ItemPoint] = []
                for (m, e) in a.items.enumerated() {
                    let label = "attachments[\(k)].items[\(m)]"
                    guard e.item >= 0 else { throw LineError(message: "\(label).item is negative") }
                    let offset = try e.offset.map { p throws(LineError) in try point(p, label + ".offset") } ?? .zero
                    ends.append(TraceScene.ItemPoint(item: e.item, offset: offset))
                }
                guard ends.count == (anchor == nil ? 2 : 1) else {
                    throw LineError(message: "attachments[\(k)] needs an anchor and one item, or two items")
                }
                attachments.append(TraceScene.Attachment(anchor: anchor, items: ends))
            }
            return .change(TraceSceneChange(frame: frame, kind: .attachments(attachments)))
        default:
            return .change(TraceSceneChange(frame: frame, kind: .snapPoints(try pointList(dto.snapPoints ?? [], "snapPoints"))))
        }
    }

    private static func part(_ p: PartDTO, _ label: String) throws(LineError) -> TraceScene.Part {
        let center = try p.center.map { c throws(LineError) in try point(c, label + ".center") } ?? .zero
        let angle = p.angle ?? 0
        guard angle.isFinite else { throw LineError(message: "\(label).angle is not finite") }
        let shape: TraceScene.Shape
        switch p.shape {
        case "rectangle", "ellipse":
            guard let size = p.size, size.count == 2 else { throw LineError(message: "\(label).size needs [width, height]") }
            try finite(size, label + ".size")
            guard size[0] > 0, size[1] > 0 else { throw LineError(message: "\(label).size needs a positive width and height") }
            let s = CGSize(width: size[0], height: size[1])
            shape = p.shape == "rectangle" ? .rectangle(s) : .ellipse(s)
        case "path":
            let vertices = try pointList(p.vertices ?? [], label + ".vertices")
            guard vertices.count >= 3 else { throw LineError(message: "\(label).vertices needs three points or more") }
            shape = .path(vertices)
        default:
            throw LineError(message: "\(label).shape \"\(p.shape)\" is not rectangle, ellipse or path")
        }
        return TraceScene.Part(shape, center: center, angle: CGFloat(angle))
    }

    private static func finite(_ values: [Double], _ label: String) throws(LineError) {
        guard values.allSatisfy(\.isFinite) else { throw LineError(message: "\(label) is not finite") }
    }

    private static func point(_ n: [Double], _ label: String) throws(LineError) -> CGPoint {
        guard n.count == 2 else { throw LineError(message: "\(label) needs [x, y]") }
        try finite(n, label)
        return CGPoint(x: n[0], y: n[1])
    }

    private static func pointList(_ list: [[Double]], _ label: String) throws(LineError) -> [CGPoint] {
        var out: [CGPoint] = []
        out.reserveCapacity(list.count)
        for (k, p) in list.enumerated() { out.append(try point(p, "\(label)[\(k)]")) }
        return out
    }

    /// A decoding error in a few words: where, and what was expected.
    private static func describe(_ error: DecodingError) -> String {
        func path(_ context: DecodingError.Context) -> String {
            let parts = context.codingPath.map { key in key.intValue.map { "[\($0)]" } ?? ".\(key.stringValue)" }
            let joined = parts.joined()
            return joined.hasPrefix(".") ? String(joined.dropFirst()) : joined
        }
        switch error {
        case .typeMismatch(let type, let context), .valueNotFound(let type, let context):
            let what = type == Double.self ? "a number" : type == Int.self ? "a whole number"
                : type == String.self ? "a string" : type == Bool.self ? "true or false" : "\(type)"
            return "\(path(context)) should be \(what)"
        case .keyNotFound(let key, let context):
            let at = path(context)
            return (at.isEmpty ? "" : at + ": ") + "no \(key.stringValue)"
        case .dataCorrupted(let context):
            return context.codingPath.isEmpty ? "not valid JSON" : "\(path(context)): \(context.debugDescription)"
        @unknown default:
            return "not a scene line"
        }
    }
}

/// The JSON shape of a scene file line; checked further by `TraceSceneChange.parse`.
private struct LineDTO: Decodable {
    var format: String?
    var version: Int?
    var frame: Int?
    var referenceBounds: [Double]?
    var boundaries: [BoundaryDTO]?
    var item: Int?
    var key: String?
    var parts: [PartDTO]?
    var attachments: [AttachmentDTO]?
    var snapPoints: [[Double]]?
    /// The change keys present (a `null` reference bounds counts: it says "no bounds").
    var kinds: [String] = []

    enum CodingKeys: String, CodingKey {
        case format, version, frame, referenceBounds, boundaries, item, key, parts, attachments, snapPoints
    }

    init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        format = try c.decodeIfPresent(String.self, forKey: .format)
        version = try c.decodeIfPresent(Int.self, forKey: .version)
        frame = try c.decodeIfPresent(Int.self, forKey: .frame)
        referenceBounds = try c.decodeIfPresent([Double].self, forKey: .referenceBounds)
        boundaries = try c.decodeIfPresent([BoundaryDTO].self, forKey: .boundaries)
        item = try c.decodeIfPresent(Int.self, forKey: .item)
        key = try c.decodeIfPresent(String.self, forKey: .key)
        parts = try c.decodeIfPresent([PartDTO].self, forKey: .parts)
        attachments = try c.decodeIfPresent([AttachmentDTO].self, forKey: .attachments)
        snapPoints = try c.decodeIfPresent([[Double]].self, forKey: .snapPoints)
        let changeKeys: [CodingKeys] = [.referenceBounds, .boundaries, .item, .attachments, .snapPoints]
        kinds = changeKeys.filter { c.contains($0) }.map(\.stringValue)
    }
}

private struct BoundaryDTO: Decodable {
    var points: [[Double]]
    var closed: Bool?
}

private struct PartDTO: Decodable {
    var shape: String
    var size: [Double]?
    var vertices: [[Double]]?
    var center: [Double]?
    var angle: Double?
}

private struct AttachmentDTO: Decodable {
    var anchor: [Double]?
    var items: [ItemPointDTO]
}

private struct ItemPointDTO: Decodable {
    var item: Int
    var offset: [Double]?
}
