import Foundation

/// A ready-made ``DynamicItem`` for apps, tests and the terminal: a plain object with a center,
/// a size, a rotation and an optional name.
///
/// ```swift
/// let box = BasicDynamicItem(center: CGPoint(x: 100, y: 50), size: CGSize(width: 40, height: 40), name: "box")
/// ```
///
/// It stands where UIKit code has a `UIView`: `BasicDynamicItem(frame:)` takes a view's frame, and
/// a subclass chooses its collision shape the UIKit way, by overriding ``collisionBoundsType``:
///
/// ```swift
/// final class BallView: BasicDynamicItem {
///     override var collisionBoundsType: DynamicItemCollisionBoundsType { .ellipse }
/// }
/// ```
///
/// (A class of your own that conforms to ``DynamicItem`` directly and wants subclasses to choose
/// the shape must declare the two properties itself: a protocol's default is fixed when the class
/// conforms, so a subclass's property of the same name would not replace it.)
open class BasicDynamicItem: DynamicItem {
    // `center` and `transform` are declared first and together (stored properties are laid out in
    // declaration order) so the animator's two writes per moved item and step share the object's
    // first cache line or the next: with `bounds` between them they took a cache miss more.

    /// The center, in points. Written by the animator after every step.
    ///
    /// Without the runtime exclusivity check (as a `UIView`'s properties have none): the animator
    /// writes the center and transform of every moving item every step, and the check was a
    /// third of each write. The item is the caller's, used on the caller's thread; nothing holds a
    /// long access to it.
    @exclusivity(unchecked) public var center: CGPoint

    /// The transform; default `.identity`. The animator writes a pure rotation after every step
    /// (no runtime exclusivity check, as for ``center``).
    @exclusivity(unchecked) public var transform: CGAffineTransform = .identity

    /// The bounds, in points; origin `.zero`, size as given. Change it and call
    /// ``DynamicAnimator/updateItem(usingCurrentState:)`` to resize the item in a running animator.
    public var bounds: CGRect

    /// The collision shape given to the initialiser; default
    /// ``DynamicItemCollisionBoundsType/rectangle``. Subclasses override it as UIKit views do.
    open var collisionBoundsType: DynamicItemCollisionBoundsType { initialBoundsType }

    /// The outline for ``DynamicItemCollisionBoundsType/path``, in points relative to the center;
    /// default `nil`. Set it, then call ``DynamicAnimator/updateItem(usingCurrentState:)`` for an
    /// item already in an animator. A subclass may override it with a getter and setter (a
    /// read-only override, as UIKit views write, does not compile: set it in the initialiser).
    open var collisionBoundingPath: BezierPath?

    private let initialBoundsType: DynamicItemCollisionBoundsType

    /// A name for reports: ``FrameReport/Item/name`` and the CSV `item` column. Default `nil`.
    public var name: String?

    /// The rotation read back from ``transform``, in radians turning from +x toward +y:
    /// `atan2(b, a)`, in (−π, π].
    public var angle: CGFloat {
        CGFloat(atan2(Double(transform.b), Double(transform.a)))
    }

    /// The size of ``bounds``, in points.
    public var size: CGSize {
        get { bounds.size }
        set { bounds = CGRect(origin: .zero, size: newValue) }
    }

    /// Creates an item.
    ///
    /// - Parameters:
    ///   - center: The center, in points.
    ///   - size: The size, in points (a zero size is raised to 1 pt when the item joins an
    ///     animator, with a diagnostic).
    ///   - collisionBoundsType: The collision shape; default `.rectangle`.
    ///   - name: A name for reports; default `nil`.
    public init(center: CGPoint, size: CGSize, collisionBoundsType: DynamicItemCollisionBoundsType = .rectangle,
                name: String? = nil) {
        self.center = center
        self.bounds = CGRect(origin: .zero, size: size)
        self.initialBoundsType = collisionBoundsType
        self.name = name
    }

    /// Creates a rectangle item occupying `frame`, as UIKit code creates a view with
    /// `UIView(frame:)`: the center is the frame's middle and the bounds its size.
    ///
    /// - Parameter frame: The item's frame, in points.
    public init(frame: CGRect) {
        let f = frame.standardized
        self.center = CGPoint(x: f.midX, y: f.midY)
        self.bounds = CGRect(origin: .zero, size: f.size)
        self.initialBoundsType = .rectangle
        self.name = nil
    }

    /// The item's frame: the rectangle of ``bounds``' size around ``center``, in points (not
    /// rotated, like a `UIView`'s frame before a transform). Setting it sets ``center`` and the
    /// size of ``bounds``, as setting a `UIView`'s frame does, so UIKit code that lays out its
    /// views before adding them to behaviours ports as written; an item already in a running
    /// animator takes the change at ``DynamicAnimator/updateItem(usingCurrentState:)``, as in UIKit.
    public var frame: CGRect {
        get {
            CGRect(x: center.x - bounds.width / 2, y: center.y - bounds.height / 2, width: bounds.width, height: bounds.height)
        }
        set {
            let f = newValue.standardized
            center = CGPoint(x: f.midX, y: f.midY)
            bounds = CGRect(origin: bounds.origin, size: f.size)
        }
    }
}

extension BasicDynamicItem: CustomStringConvertible {
    /// `BasicDynamicItem(name, center)`, for logs and diagnostics.
    public var description: String {
        "BasicDynamicItem(\(name.map { "\"\($0)\", " } ?? "")center: (\(center.x), \(center.y)))"
    }
}

/// A ``BasicDynamicItem`` stands where UIKit code has a `UIView`, and a `UIView` is also what
/// UIKit's animator takes as its reference view: so `DynamicAnimator(referenceView: view)` ports
/// as written. Its ``BasicDynamicItem/bounds`` (set directly, or through
/// ``BasicDynamicItem/frame``) are the reference bounds, read at every step.
extension BasicDynamicItem: DynamicReferenceView {}
