import Foundation

/// What an animator needs of a reference view: its bounds. UIKit's `UIView`, as far as
/// ``DynamicAnimator/init(referenceView:)`` uses one.
///
/// Conform the view class of your toolkit (or any object that knows a rectangle) to make UIKit's
/// `DynamicAnimator(referenceView: view)` port as written. ``BasicDynamicItem``, the stand-in for
/// `UIView`, conforms, since a `UIView` is both a dynamic item and a reference view.
///
/// ```swift
/// final class CanvasView: DynamicReferenceView {
///     var bounds = CGRect(x: 0, y: 0, width: 320, height: 480)
/// }
/// let view = CanvasView()
/// let animator = DynamicAnimator(referenceView: view)
/// view.bounds.size.height = 568      // the reference-bounds boundary follows at the next step
/// ```
///
/// The animator holds the view weakly, as UIKit does, and reads ``bounds`` lazily: at the start of
/// every step and whenever it builds a reference-bounds boundary (see
/// ``DynamicAnimator/init(referenceView:)`` for the rules).
public protocol DynamicReferenceView: AnyObject {
    /// The view's bounds in its own coordinate space, in points: the animator's reference
    /// coordinate space. Origin and size are both used (a scrolled view's bounds origin moves the
    /// reference-bounds boundary with it, as in UIKit).
    var bounds: CGRect { get }
}
