import Foundation

/// Hears an animator pause and resume: UIKit's `UIDynamicAnimatorDelegate`.
///
/// Both methods have empty default implementations; implement the ones you need.
public protocol DynamicAnimatorDelegate: AnyObject {
    /// Called when a paused animator starts running again: a behaviour was added or removed, a
    /// behaviour property or boundary changed, an item was updated or given a velocity. Called
    /// synchronously from the call that caused the change.
    func dynamicAnimatorWillResume(_ animator: DynamicAnimator)

    /// Called at the end of the step after which every item is at rest (its body asleep after
    /// 0.5 s below 5 pt/s) or anchored.
    func dynamicAnimatorDidPause(_ animator: DynamicAnimator)
}

extension DynamicAnimatorDelegate {
    /// Does nothing.
    public func dynamicAnimatorWillResume(_ animator: DynamicAnimator) {}
    /// Does nothing.
    public func dynamicAnimatorDidPause(_ animator: DynamicAnimator) {}
}
