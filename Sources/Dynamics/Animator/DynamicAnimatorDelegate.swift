import Foundation

/// Hears an animator pause and resume: UIKit's `UIDynamicAnimatorDelegate`.
///
/// Both methods are optional, as in UIKit: implement the ones you need, with UIKit's signatures
/// minus `UI`. A method you leave out is reported once, as a
/// ``DynamicsDiagnostic/Severity-swift.enum/note``, the first time it would have been called, so a
/// method written with another signature (which satisfies nothing) does not go unnoticed.
///
/// A `@MainActor` class (a view controller) conforms with an isolated conformance:
/// `extension GameViewController: @MainActor DynamicAnimatorDelegate`.
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
    /// Not implemented: reports a note once per delegate type.
    public func dynamicAnimatorWillResume(_ animator: DynamicAnimator) {
        animator.noteUnimplemented(self, "dynamicAnimatorWillResume(_:)", events: "resumes")
    }
    /// Not implemented: reports a note once per delegate type.
    public func dynamicAnimatorDidPause(_ animator: DynamicAnimator) {
        animator.noteUnimplemented(self, "dynamicAnimatorDidPause(_:)", events: "pauses")
    }
}

extension DynamicAnimator {
    /// Reports, once per delegate type and method, that a delegate left an optional method out
    /// (`eitherSpelling`: neither its UIKit nor its Swift spelling).
    func noteUnimplemented(_ delegate: AnyObject, _ method: String, eitherSpelling: Bool = false, events: String) {
        let spelling = eitherSpelling ? " (either spelling)" : ""
        reportOnce(.delegateMethodMissing(method: method),
                   "\(type(of: delegate)) does not implement \(method)\(spelling), so \(events) are not reported to it. "
                       + "A method with another signature does not count: UIKit's, minus `UI`, is the one called.",
                   severity: .note)
    }
}
