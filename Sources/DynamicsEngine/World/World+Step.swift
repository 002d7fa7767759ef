import Foundation

extension World {
    /// Advances the world by `dt` seconds with `substeps` solver sub-steps (Box2D's defaults: 1/60, 4).
    ///
    /// The recipe, one function per phase, each timed into `profile` while `isProfiling`.
    package func step(dt: Float, substeps: Int) {
        beginEvents.removeAll(keepingCapacity: true)
        endEvents.removeAll(keepingCapacity: true)
        sets.moved.removeAll()
        moves.isCurrent = false
        guard dt > 0, dt.isFinite else { return }
        let n = max(1, min(substeps, 64))
        pool.beginStep()
        defer { pool.endStep() }
        var timer = PhaseTimer(isProfiling)
        updatePairs()                                   // new pairs from the grid: the only phase that adds slots
        profile.pairs = timer.lap()
        collide()                                       // manifolds; touches begin and end
        profile.collide = timer.lap()
        var ctx = makeStepContext(dt: dt, substeps: n)
        prepareJoints(&ctx)                             // body records; joints coloured and prepared
        profile.prepareJoints = timer.lap()
        prepareContacts(&ctx)                           // contacts coloured, impact pass, prepared
        profile.prepareContacts = timer.lap()
        solveSubsteps(ctx)
        profile.solve = timer.lap()
        applyRestitution(ctx)
        profile.restitution = timer.lap()
        storeImpulses(ctx)                              // for the next step's warm start
        profile.store = timer.lap()
        let fast = finalizeBodies(ctx)
        profile.finalize = timer.lap()
        if !fast.isEmpty {
            solveContinuous(fast, dt: dt)               // fast bodies stop at their first hit
            if def.sweepBulletsAgainstBodies { solveBullets(fast, dt: dt) }   // the fastest, at other bodies too
            recordMovedPoses(of: fast)                  // the poses the sweeps changed
        }
        profile.continuous = timer.lap()
        updateShapeBoxes(ctx)
        sets.moved = sets.awake                         // shares the buffer until sleep changes it
        moves.count = ctx.awakeCount
        // (a list that changed since the bodies were finalised is read from the bodies instead)
        moves.isCurrent = moves.isRecording && sets.awake.count == ctx.awakeCount
        profile.finalize += timer.lap()
        // resting islands fall asleep, and the step's forces are spent (`updateSleep` clears them)
        if def.enableSleep { updateSleep(dt: dt) } else { clearAppliedForces() }
        profile.sleep = timer.lap()
        scratch.solvedContactCount = -1
        stepCount += 1
        if def.validate {
            // The engine only reports: whoever switched validation on (a test, the animator under
            // DYNAMICS_VALIDATE) decides whether a broken invariant stops the run.
            validationErrors = validate()
        }
    }
}
