/** What a lazily loaded screen shows while its code arrives. */
export function ScreenLoading() {
  return (
    <div role="status" className="grid h-full min-h-60 place-items-center text-sm text-slate-500">
      Loading...
    </div>
  );
}
