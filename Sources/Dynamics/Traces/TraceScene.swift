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
