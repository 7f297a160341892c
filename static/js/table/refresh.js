// Reading the game from the API and taking in each new view of it. What a new view sets
// off (the hand, the drawing, the absent player, the log) listens to the store's "view".

import { ApiError, api } from "../api.js";
import { API } from "./page.js";
import { changed, publish, setMissing, setRaw, setView, state } from "./store.js";
import { toast } from "./toast.js";

export async function refresh() {
  try {
    const view = await api(API);
    setMissing(false);
    const raw = JSON.stringify(view);
    if (raw === state.raw) return;
    setRaw(raw);
    apply(view);
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) {
      setMissing(true);
      changed();
    } else if (error instanceof ApiError && error.status === 401) {
      window.location.reload();
    } else if (!state.loaded) {
      toast(error.message);
    }
  }
}

export function apply(view) {
  const before = state.view;
  // An answer that left the server before the one we hold: keep the newer state.
  if (before && view.ply < before.ply) return;
  setView(view);
  publish("view", before);
}
