import Foundation

extension DisplayLink {
    /// The longest time one frame hands to an animator added with ``add(_:)``, in seconds: 0.25.
    ///
    /// A frame that reports a longer ``lastFrameDuration`` (the process was stopped in a debugger,
    /// the machine slept, a frame observer stalled) advances the animator by 0.25 s only; the rest
    /// of the gap is dropped, so the simulation falls behind the wall clock for that frame instead
    /// of trying to catch up. Catching up would run many steps in one frame; if those take longer
    /// than real time, the next frame is later still and asks for even more steps: the "spiral of
    /// death". 0.25 s is 15 steps at the default 1/60 s step.
    public static let maximumAnimatorFrameDuration: TimeInterval = 0.25

    /// Drives `animator` from this link: on every delivered frame the animator advances by the
    /// frame's ``lastFrameDuration``, at most ``maximumAnimatorFrameDuration`` (0.25 s), with
    /// ``DynamicAnimator/advance(by:)``, which runs the whole fixed steps that fit and carries
    /// the remainder over to the next frame. So the animator's time follows the link's, except
    /// after stalls longer than 0.25 s, and a paused link (``isPaused``) pauses the simulation
    /// without a jump when it resumes.
    ///
    /// The link keeps the animator alive until the observer is removed
    /// (``removeObserver(_:)`` with the returned token) or the link is invalidated. Add frame
    /// observers to the animator to draw each frame; they run inside this link's frame.
    ///
    /// ```swift
    /// let link = DisplayLink(preferredFramesPerSecond: 30)
    /// link.add(animator)
    /// animator.addFrameObserver { report in print(renderer.render(report, of: animator)) }
    /// await link.run()
    /// ```
    ///
    /// - Parameter animator: The animator to advance.
    /// - Returns: The observer's token, for ``removeObserver(_:)``.
    @discardableResult
    public func add(_ animator: DynamicAnimator) -> ObserverToken {
        addObserver { link in
            animator.advance(by: Self.animatorFrameDuration(link.lastFrameDuration))
        }
    }

    /// The time a frame of `duration` seconds hands to an animator: `duration` clamped to
    /// 0 … ``maximumAnimatorFrameDuration``; 0 for a non-finite duration.
    static func animatorFrameDuration(_ duration: TimeInterval) -> TimeInterval {
        guard duration.isFinite, duration > 0 else { return 0 }
        return min(duration, maximumAnimatorFrameDuration)
    }
}
