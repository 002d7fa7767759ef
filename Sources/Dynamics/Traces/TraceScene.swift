import Foundation

/// What a picture of an animator needs besides the items' poses: the reference bounds, the
/// boundaries, every item's shape, the attachments and the snap points.
///
/// A trace is two files: the frames, as ``CSVFrameWriter`` has always written them (one row per
/// item per frame, poses only), and beside it a *scene file* that describes, once, what those
/// rows are poses *of* (see <doc:Traces> for the format and why it is a second file). A scene
/// is the state of that description at one frame: ``CSVFrameWriter/record(_:)`` writes its
/// changes as they happen, ``TraceReader`` rebuilds it for the frame it reads, and
/// ``ASCIIRenderer`` and ``SVGRenderer`` draw a ``FrameReport`` with it.
///
/// Items are matched by position: `items[i]` describes `FrameReport.items[i]`, whose CSV `item`
/// field is ``Item/key``. Coordinates are in points, angles in radians turning from +x toward +y
/// (y down), as everywhere in the module.
public struct TraceScene: Sendable, Equatable {
    /// The animator's reference bounds, in points; `nil` for an animator made with
    /// ``DynamicAnimator/init()`` (the picture then fits the items). Default `nil`.
    public var referenceBounds: CGRect?

    /// The collision boundaries, flattened to straight segments (0.5 pt tolerance), in points:
    /// every explicit boundary of every collision behaviour, and the reference-bounds boundary
    /// when it is inset (at zero insets the reference bounds' frame shows it). Default empty.
    public var boundaries: [Boundary]

    /// One description per item, in the order of ``FrameReport/items``. Default empty.
    public var items: [Item]

    /// The attachments, drawn as lines between an anchor and an item or between two items.
    /// Default empty.
    public var attachments: [Attachment]

    /// The snap behaviours' snap points, in points. Default empty.
    public var snapPoints: [CGPoint]

    /// Creates a scene.
    ///
    /// - Parameters:
    ///   - referenceBounds: The reference bounds, in points; default `nil`.
    ///   - boundaries: The boundaries, in points; default none.
    ///   - items: The items' descriptions, in frame order; default none.
    ///   - attachments: The attachments; default none.
    ///   - snapPoints: The snap points, in points; default none.
    public init(referenceBounds: CGRect? = nil, boundaries: [Boundary] = [], items: [Item] = [],
                attachments: [Attachment] = [], snapPoints: [CGPoint] = []) {
        self.referenceBounds = referenceBounds
        self.boundaries = boundaries
        self.items = items
        self.attachments = attachments
        self.snapPoints = snapPoints
    }

    /// The scene of `animator` as it is now: what ``CSVFrameWriter/record(_:)`` writes for the
    /// frame it is given, and what ``ASCIIRenderer`` draws the animator with.
    ///
    /// Reading the animator applies pending behaviour changes first (as
    /// ``DynamicAnimator/items(in:)`` does), except inside a step's callbacks and frame
    /// observers, where it describes the world exactly as the frame left it.
    ///
    /// - Parameter animator: The animator to describe.
    public init(_ animator: DynamicAnimator) {
        animator.ensureSynced()
        self = animator.traceScene()
    }

    // MARK: Parts

    /// A polyline boundary, in points.
    public struct Boundary: Sendable, Equatable {
        /// The vertices, in points, in drawing order; at least two.
        public var points: [CGPoint]
        /// Whether a segment joins the last point back to the first. Default `false`.
        public var isClosed: Bool

        /// Creates a boundary.
        ///
        /// - Parameters:
        ///   - points: The vertices, in points.
        ///   - isClosed: Whether the last point joins the first; default `false`.
        public init(points: [CGPoint], isClosed: Bool = false) {
            self.points = points
            self.isClosed = isClosed
        }
    }

    /// What one item looks like: the collision shapes the animator simulates, in the item's own
    /// space (origin at its center, unrotated).
    public struct Item: Sendable, Equatable {
        /// The item's `item` field in the CSV: its ``BasicDynamicItem/name``, or its position in
        /// the frame for an unnamed item (`"0"`, `"1"` …).
        public var key: String
        /// The item's shapes: one for an item, one per member for a ``DynamicItemGroup``.
        /// Empty for an item the scene does not know (drawn as a single mark).
        public var parts: [Part]

        /// Creates an item description.
        ///
        /// - Parameters:
        ///   - key: The CSV `item` field: the name, or the position for an unnamed item.
        ///   - parts: The shapes, in the item's space.
        public init(key: String, parts: [Part]) {
            self.key = key
            self.parts = parts
        }
    }

    /// One collision shape of an item, placed in the item's space.
    public struct Part: Sendable, Equatable {
        /// The shape, in the part's own space (origin at its center).
        public var shape: Shape
        /// The part's center in the item's space, in points: `.zero` for an item, the member's
        /// offset from the group's center for a group member. Default `.zero`.
        public var center: CGPoint
        /// The part's rotation relative to the item, in radians (a group member's own turn).
        /// Default 0.
        public var angle: CGFloat

        /// Creates a part.
        ///
        /// - Parameters:
        ///   - shape: The shape, in the part's space.
        ///   - center: The part's center in the item's space, in points; default `.zero`.
        ///   - angle: The part's rotation in the item, in radians; default 0.
        public init(_ shape: Shape, center: CGPoint = .zero, angle: CGFloat = 0) {
            self.shape = shape
            self.center = center
            self.angle = angle
        }
    }

    /// A collision shape, centred on its part's origin.
    public enum Shape: Sendable, Equatable {
        /// A ``DynamicItemCollisionBoundsType/rectangle`` of this size, in points.
        case rectangle(CGSize)
        /// A ``DynamicItemCollisionBoundsType/ellipse`` inscribed in a rectangle of this size, in
        /// points. (The engine simulates a polygon within 0.5 pt of it; pictures draw the ellipse.)
        case ellipse(CGSize)
        /// A ``DynamicItemCollisionBoundsType/path`` item's convex outline as the engine uses it,
        /// in points, at least three vertices.
        case path([CGPoint])

        /// The collision bounds type the shape stands for.
        public var collisionBoundsType: DynamicItemCollisionBoundsType {
            switch self {
            case .rectangle: return .rectangle
            case .ellipse: return .ellipse
            case .path: return .path
            }
        }
    }

    /// An attachment, drawn as a line from its anchor to its item, or between its two items.
    public struct Attachment: Sendable, Equatable {
        /// The anchor, in points, for an attachment to an anchor; `nil` between two items.
        public var anchor: CGPoint?
        /// The attached items: one for an anchor attachment, two otherwise.
        public var items: [ItemPoint]

        /// Creates an attachment.
        ///
        /// - Parameters:
        ///   - anchor: The anchor point, in points, or `nil` for two items.
        ///   - items: The attached items.
        public init(anchor: CGPoint?, items: [ItemPoint]) {
            self.anchor = anchor
            self.items = items
        }
    }

    /// A point fixed to an item: the item's position in the frame and the point in its space.
    public struct ItemPoint: Sendable, Equatable {
        /// The item's position in ``FrameReport/items``.
        public var item: Int
        /// The point in the item's space, in points: `.zero` (its center) for an item, the
        /// member's center for a group member. Default `.zero`.
        public var offset: CGPoint

        /// Creates an item point.
        ///
        /// - Parameters:
        ///   - item: The item's position in the frame.
        ///   - offset: The point in the item's space, in points; default `.zero`.
        public init(item: Int, offset: CGPoint = .zero) {
            self.item = item
            self.offset = offset
        }
    }

    // MARK: Files

    /// The scene file that goes with the trace at `path`: `path` with a final `.csv` (any case)
    /// replaced by `.scene.jsonl`, or with `.scene.jsonl` appended when it has no `.csv`
    /// extension. `rain.csv` → `rain.scene.jsonl`.
    ///
    /// - Parameter path: The trace's (frames file's) path.
    public static func scenePath(forTrace path: String) -> String {
        if path.lowercased().hasSuffix(".csv") {
            return String(path.dropLast(4)) + sceneFileExtension
        }
        return path + sceneFileExtension
    }

    /// The scene file's extension, with its dot: `.scene.jsonl`.
    public static let sceneFileExtension = ".scene.jsonl"

    /// The `format` of the scene file's first line: `swift-dynamics-trace-scene`.
    public static let sceneFormat = "swift-dynamics-trace-scene"

    /// The scene file format's version written (and the newest read): 1.
    public static let sceneFormatVersion = 1
}

// MARK: - Changes

/// One line of a scene file: from frame `frame` on, one part of the scene is as given.
struct TraceSceneChange: Equatable {
    enum Kind: Equatable {
        case referenceBounds(CGRect?)
        case boundaries([TraceScene.Boundary])
        case item(position: Int, TraceScene.Item)
        case attachments([TraceScene.Attachment])
        case snapPoints([CGPoint])
    }

    /// The CSV `frame` number from which the change holds.
    var frame: Int
    var kind: Kind

    /// The most items a scene file may place (a bad position must not allocate without limit).
    static let maximumItemPosition = 10_000_000

    /// Applies the change to `scene`.
    func apply(to scene: inout TraceScene) {
        switch kind {
        case .referenceBounds(let rect): scene.referenceBounds = rect
        case .boundaries(let list): scene.boundaries = list
        case .attachments(let list): scene.attachments = list
        case .snapPoints(let points): scene.snapPoints = points
        case .item(let position, let item):
            if position < scene.items.count {
                scene.items[position] = item
            } else {
                while scene.items.count < position { scene.items.append(TraceScene.Item(key: "", parts: [])) }
                scene.items.append(item)
            }
        }
    }

    /// The changes that turn `old` into `new` (an empty list when they are equal), in a fixed
    /// order: bounds, boundaries, items by position, attachments, snap points. Items past the
    /// end of `new` are not retracted: frames simply have no rows for them.
    static func changes(from old: TraceScene?, to new: TraceScene, frame: Int) -> [TraceSceneChange] {
        var out: [TraceSceneChange] = []
        if old == nil || old!.referenceBounds != new.referenceBounds {
            out.append(TraceSceneChange(frame: frame, kind: .referenceBounds(new.referenceBounds)))
        }
        if old == nil ? !new.boundaries.isEmpty : old!.boundaries != new.boundaries {
            out.append(TraceSceneChange(frame: frame, kind: .boundaries(new.boundaries)))
        }
        for (position, item) in new.items.enumerated() {
            if let old, position < old.items.count, old.items[position] == item { continue }
            out.append(TraceSceneChange(frame: frame, kind: .item(position: position, item)))
        }
        if old == nil ? !new.attachments.isEmpty : old!.attachments != new.attachments {
            out.append(TraceSceneChange(frame: frame, kind: .attachments(new.attachments)))
        }
        if old == nil ? !new.snapPoints.isEmpty : old!.snapPoints != new.snapPoints {
            out.append(TraceSceneChange(frame: frame, kind: .snapPoints(new.snapPoints)))
        }
        return out
    }
}

// MARK: - Writing JSON lines

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

// MARK: - Reading JSON lines

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
