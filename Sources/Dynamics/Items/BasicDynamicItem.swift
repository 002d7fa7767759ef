import Foundation

/// A ready-made ``DynamicItem`` for apps, tests and the terminal: a plain object with a center,
/// a size, a rotation and an optional name.
///
/// ```swift
/// let box = BasicDynamicItem(center: CGPoint(x: 100, y: 50), size: CGSize(width: 40, height: 40), name: "box")
/// ```
public final class BasicDynamicItem: DynamicItem {
    /// The center, in points. Written by the animator after every step.
    public var center: CGPoint

    /// The bounds, in points; origin `.zero`, size as given. Change it and call
    /// ``DynamicAnimator/updateItem(usingCurrentState:)`` to resize the item in a running animator.
    public var bounds: CGRect

    /// The transform; default `.identity`. The animator writes a pure rotation after every step.
    public var transform: CGAffineTransform = .identity

    /// The collision shape; default ``DynamicItemCollisionBoundsType/rectangle``.
    public var collisionBoundsType: DynamicItemCollisionBoundsType

    /// The outline for ``DynamicItemCollisionBoundsType/path``, in points relative to the center;
    /// default `nil`.
    public var collisionBoundingPath: BezierPath?

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
        self.collisionBoundsType = collisionBoundsType
        self.name = name
    }
}

extension BasicDynamicItem: CustomStringConvertible {
    /// `BasicDynamicItem(name, center)`, for logs and diagnostics.
    public var description: String {
        "BasicDynamicItem(\(name.map { "\"\($0)\", " } ?? "")center: (\(center.x), \(center.y)))"
    }
}
