import Foundation

/// Insets from the edges of a rectangle, in points: UIKit's `UIEdgeInsets`. Positive values move
/// an edge inward.
///
/// ``CollisionBehavior/setTranslatesReferenceBoundsIntoBoundary(with:)`` takes them, under this
/// name or as `CollisionBehavior.Insets`. (In a SwiftUI file, where SwiftUI has an `EdgeInsets`
/// of its own, write `Dynamics.EdgeInsets` or `CollisionBehavior.Insets`.)
public struct EdgeInsets: Sendable, Hashable, Codable {
    /// Inset of the top edge, in points. Default 0.
    public var top: CGFloat
    /// Inset of the left edge, in points. Default 0.
    public var left: CGFloat
    /// Inset of the bottom edge, in points. Default 0.
    public var bottom: CGFloat
    /// Inset of the right edge, in points. Default 0.
    public var right: CGFloat

    /// Creates insets, in points: UIKit's `UIEdgeInsets(top:left:bottom:right:)`.
    public init(top: CGFloat = 0, left: CGFloat = 0, bottom: CGFloat = 0, right: CGFloat = 0) {
        self.top = top
        self.left = left
        self.bottom = bottom
        self.right = right
    }

    /// No inset.
    public static let zero = EdgeInsets()
}

/// UIKit's `UIEdgeInsetsMake(_:_:_:_:)`, from code written before `UIEdgeInsets(top:left:bottom:right:)`.
///
/// - Parameters: The insets of the top, left, bottom and right edges, in points.
public func EdgeInsetsMake(_ top: CGFloat, _ left: CGFloat, _ bottom: CGFloat, _ right: CGFloat) -> EdgeInsets {
    EdgeInsets(top: top, left: left, bottom: bottom, right: right)
}

extension CGRect {
    /// The rectangle with each edge moved inward by `insets` (outward for negative values):
    /// UIKit's `CGRect.inset(by:)`. The result may be empty or have a negative size when the
    /// insets exceed the rectangle, as in UIKit.
    ///
    /// - Parameter insets: The insets, in points.
    public func inset(by insets: EdgeInsets) -> CGRect {
        CGRect(x: origin.x + insets.left, y: origin.y + insets.top,
               width: size.width - insets.left - insets.right, height: size.height - insets.top - insets.bottom)
    }
}
