import Foundation

/// Names a frame observer for ``DynamicAnimator/removeFrameObserver(_:)``.
public struct FrameObserverToken: Hashable, Sendable {
    let id: Int
}
