/** The market's game search: suggestions as you type; picking one opens the game's page. */
import { useNavigate } from 'react-router';
import { GamePicker } from './GamePicker';

export function GameSearch() {
  const navigate = useNavigate();
  return (
    <GamePicker
      label="Search games"
      hideLabel
      placeholder="Search games by name, creator or id"
      onPick={(g) => navigate(`/games/${g.place_id}`)}
    />
  );
}
