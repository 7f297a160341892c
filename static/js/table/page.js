// What the table's markup tells the script: which game, where its API is, and where a
// player goes back to. Read once: the page never changes them.

import { $ } from "../dom.js";

export const root = $("game");
export const GAME = root.dataset.gameId;
export const API = root.dataset.api;
export const INVITE = root.dataset.invite || "";
export const LOBBY_URL = root.dataset.lobbyUrl;
export const WS_URL = root.dataset.wsUrl || "";
